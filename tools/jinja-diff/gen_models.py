import json, glob, os, random, sys
T=os.path.join(os.environ.get('PROMPTSCOPE_UPSTREAM', os.path.expanduser('~/.cache/promptscope/upstream')), 'llama.cpp-b11312/models/templates/')
convs = []
base = {"add_generation_prompt": True, "bos_token": "<s>", "eos_token": "</s>"}
convs.append(dict(base, messages=[{"role":"system","content":"You are a helpful assistant."},{"role":"user","content":"Hello!"},{"role":"assistant","content":"Hi there! How can I help?"},{"role":"user","content":"What is 2+2?"}]))
convs.append(dict(base, messages=[{"role":"user","content":"Hello!"}], add_generation_prompt=False))
tools=[{"type":"function","function":{"name":"get_weather","description":"Get weather","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City"},"unit":{"type":"string","enum":["c","f"]}},"required":["city"]}}}]
convs.append(dict(base, tools=tools, messages=[{"role":"system","content":"sys"},{"role":"user","content":"Weather in Paris?"},{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},{"role":"tool","content":"{\"temp\": 20}","tool_call_id":"call_1","name":"get_weather"},{"role":"assistant","content":"It is 20C.", "reasoning_content":"think think"},{"role":"user","content":"thanks"}]))
convs.append(dict(base, tools=tools, enable_thinking=True, messages=[{"role":"user","content":"Weather?"},{"role":"assistant","content":"ok","reasoning_content":"hmm","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Rome\"}"}},{"id":"c2","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Oslo\"}"}}]},{"role":"tool","content":"sunny","tool_call_id":"c1"},{"role":"tool","content":"rain","tool_call_id":"c2"}]))
convs.append(dict(base, messages=[{"role":"user","content":[{"type":"text","text":"Describe"},{"type":"image"}]},{"role":"assistant","content":[{"type":"text","text":"A cat"}]},{"role":"user","content":"more é ü 日本"}]))
rows=[]
for f in sorted(glob.glob(T+'*.jinja')):
    src=open(f).read()
    for c in convs:
        rows.append({"template":src,"vars":c,"name":f.split('/')[-1]})
mode = sys.argv[1] if len(sys.argv)>1 else 'models'
if mode=='models':
    for r in rows: print(json.dumps(r))
elif mode=='caps':
    for f in sorted(glob.glob(T+'*.jinja')):
        print(json.dumps({"template":open(f).read(),"name":f.split('/')[-1]}))
