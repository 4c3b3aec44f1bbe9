import json, random, sys
random.seed(int(sys.argv[1]))
acc=['m.content','m["content"]','m.content[0]','m.content[0].text','m.content|selectattr("type","equalto","text")|list','m.content is string','m.role','m.tool_calls','m.tool_calls[0].function.arguments','m.tool_calls[1].function','m.tool_calls|length','m.reasoning_content','m.tool_calls[0].function.arguments.arg','m.tool_calls[0].function.arguments|tojson','tools[0].function.name','tools|tojson','reasoning_effort','preserve_thinking','enable_thinking','m.content|string','m.content.upper()','m.get("content")','m.tool_call_id','loop.index']
def stmt():
    a=random.choice(acc)
    r=random.random()
    if r<0.4: return '{{ '+a+' }}'
    if r<0.6: return '{% if '+a+' %}['+random.choice(['x','{{ m.content }}','{{ '+random.choice(acc)+' }}'])+']{% endif %}'
    if r<0.7: return '{% for c in '+a+' %}{{ c }}{% endfor %}'
    if r<0.8: return '{% if m.role == "'+random.choice(['system','user','assistant','tool'])+'" %}{{ '+random.choice(acc)+' }}{% endif %}'
    if r<0.9: return '{% if '+a+' is defined %}D{% endif %}'
    return '{{ raise_exception("x") if '+a+' }}'
for _ in range(int(sys.argv[2])):
    body=''.join(stmt() for _ in range(random.randint(1,4)))
    t='{% for m in messages %}'+body+'{% endfor %}'+random.choice(['','{{ tools[0].function.name }}','{% if add_generation_prompt %}A{% endif %}','{{ reasoning_effort }}'])
    print(json.dumps({"template":t}))
