import json, glob, os, random, sys
random.seed(int(sys.argv[1]))
srcs=[open(f).read() for f in sorted(glob.glob(os.path.join(os.environ.get('PROMPTSCOPE_UPSTREAM', os.path.expanduser('~/.cache/promptscope/upstream')), 'llama.cpp-b11312/models/templates/*.jinja')))]
conv={"add_generation_prompt":True,"bos_token":"<s>","eos_token":"</s>","messages":[{"role":"system","content":"S"},{"role":"user","content":"Hi"},{"role":"assistant","content":"Yo","reasoning_content":"r"},{"role":"user","content":"Q"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}}]}
frag=['{{','}}','{%','%}','{#','#}','-','{%-','-%}',"'",'"','\\','(',')','[',']','|',' is ',' not ','\r\n','\r','\n','  ','.','::','*','end','{% endif %}','{% endfor %}','{% else %}','=','~','0','1.5','\\n']
N=int(sys.argv[2])
for _ in range(N):
    s=random.choice(srcs)
    k=random.random()
    if k<0.3:
        s=s[:random.randint(0,len(s))]
    else:
        for _ in range(random.randint(1,3)):
            p=random.randint(0,len(s))
            if random.random()<0.5: s=s[:p]+random.choice(frag)+s[p:]
            else: s=s[:p]+s[p+random.randint(1,5):]
    print(json.dumps({"template":s,"vars":conv}))
