import json, random, sys
random.seed(int(sys.argv[1]) if len(sys.argv)>1 else 1)
N=int(sys.argv[2]) if len(sys.argv)>2 else 3000
atoms=['1','0','-3','2.5','-0.5','1e','3.0','"abc"',"'a\\'b'",'"A b"','""','none','None','true','False','x','y','z','arr','obj','items','undef','[1, 2, 3]','[]','{}','{"a": 1, "b": [2]}','(1, 2)','(1,)','s','ns','"  pad  "','"a,b,,c"','"Hello World"','big','neg','fl','nested','"é日"','range(3)','mixed','strs','long','recs','long|sort','recs|sort(attribute="k")','recs|map(attribute="k")|list','{1: 2, 1.0: 3, true: 4, "1": 5}','{(1,2): 3}','dict(a=1, b=2)','dict([("x", 1)])','"%"','"{}-{}"','"1 2  3"','"0x1f"','"12abc"','"  42"','"1.5e3"','"-inf"']
filters=['length','count','first','last','reverse','sort','unique','join','upper','lower','trim','default','tojson','string','int','float','abs','list','dictsort','items','keys','values','capitalize','title','safe','e','d','wordcount','replace("a","X")','join(", ")','default("dflt")','default("d", true)','tojson(indent=2)','tojson(indent=0)','tojson(separators=(",", ":"))','tojson(ensure_ascii=true)','selectattr("a")','map(attribute="a")','sort(reverse=true)','sort(attribute="a")','indent(2)','indent(2, true)','indent(width=">")','split(",")','split(",", 1)','rsplit(",", 1)','select("odd")','reject("none")','selectattr("a","equalto",1)','min','max','dictsort(by="value")','dictsort(reverse=true)','batch(2)','sum','truncate(3)','center(5)','slice(1)','round','format(1)','strip("a")','lstrip','rstrip("d ")','startswith("a")','endswith("c")','int(base=16)','float(default=1.5)']
methods=['upper()','lower()','strip()','split()','split(",")','startswith("a")','endswith("c")','replace("a","b")','title()','capitalize()','items()','keys()','values()','get("a")','get("zz", 5)','append(4)','pop()','pop(0)','format("q")','count("a")','find("b")','join(arr)','length','index(1)','isdigit()','lstrip("a")','rstrip()','splitlines()','copy()','update({"c":3})','0','1','-1','a','b','[0]','[1:]','[::-1]','[:2]','[-2:]','[::2]','[1:3:1]','["a"]','[0][0]','[none]','[true]','[1.0]']
ops=['+','-','*','/','%','~','==','!=','<','>','<=','>=','in','not in','and','or','//','**',' is ',' is not ']
tests=['defined','undefined','none','string','number','integer','float','mapping','iterable','sequence','odd','even','true','false','boolean','callable','lower','upper','in [1,2]','eq 1','ne 1','gt 0','lt 0','ge 1','le 1','sameas none','divisibleby 2','test','equalto "abc"','escaped']
def atom(d=0):
    r=random.random()
    if d<3 and r<0.15: return '('+expr(d+1)+')'
    if d<3 and r<0.25: return '['+', '.join(expr(d+1) for _ in range(random.randint(0,3)))+']'
    if d<3 and r<0.3: return '{'+', '.join(expr(d+1)+': '+expr(d+1) for _ in range(random.randint(0,2)))+'}'
    a=random.choice(atoms)
    if random.random()<0.3: a=a+'.'+random.choice(methods) if not random.choice(methods).startswith('[') else a+random.choice(methods)
    return a
def expr(d=0):
    r=random.random()
    if d>2 or r<0.3: return atom(d)
    if r<0.55: return expr(d+1)+' '+random.choice(ops)+' '+expr(d+1)
    if r<0.75: return expr(d+1)+'|'+random.choice(filters)
    if r<0.85: return expr(d+1)+' is '+random.choice(['','not '])+random.choice(tests)
    if r<0.92: return expr(d+1)+' if '+expr(d+1)+(' else '+expr(d+1) if random.random()<0.7 else '')
    return random.choice(['not ','-','+'])+expr(d+1)
stmts=[
 lambda: '{{ '+expr()+' }}',
 lambda: '{% for i in '+expr()+' %}[{{ i }}|{{ loop.index }}{{ loop.last }}]{% else %}E{% endfor %}',
 lambda: '{% for k, v in '+expr()+' %}{{k}}={{v}};{% endfor %}',
 lambda: '{% set q = '+expr()+' %}{{ q }}|{{ q|tojson }}',
 lambda: '{% if '+expr()+' %}T{% elif '+expr()+' %}E{% else %}F{% endif %}',
 lambda: '{% macro m(a, b=2) %}<{{a}}:{{b}}>{% endmacro %}{{ m('+expr()+') }}{{ m(b='+expr()+', a=1) }}',
 lambda: '{% set ns = namespace(c=0) %}{% for i in arr %}{% set ns.c = ns.c + i %}{% endfor %}{{ ns.c }}{{ '+expr()+' }}',
 lambda: '{% filter upper %}{{ '+expr()+' }}{% endfilter %}',
 lambda: '{{ '+expr()+' }}{# c #}  \n  {%- if true -%}  x  {%- endif %}\n{{ '+expr()+' -}}  ',
 lambda: '{% for i in arr if i '+random.choice(['> 1','is odd','in [1,3]'])+' %}{{ i }}{% if loop.first %}f{% endif %}{% break %}{% endfor %}',
 lambda: '{% for i in arr %}{% if i == 2 %}{% continue %}{% endif %}{{ i }}{% else %}none{% endfor %}',
 lambda: '{% call(u) m2(' + expr() + ') %}[{{u}}]{% endcall %}',
 lambda: '{{ '+expr()+' }}\r\n{{ '+expr()+' }}\n',
]
vars={"x":42,"y":"hello","z":3.14,"arr":[1,2,3],"obj":{"a":1,"b":2},"items":["a","b","c"],"s":"a,b,c","big":9007199254740993,"neg":-7,"fl":1e20,"nested":{"a":{"b":[1,{"c":"d"}]}},"mixed":[3,"1",2.5,True,None],"strs":["b","A","a","c"],"ns":None,"long":[random.choice([3,1,2,"a",None,True,2.0,"b"]) for _ in range(40)],"recs":[{"k":random.choice([1,2,3]),"v":i} for i in range(25)]}
for _ in range(N):
    k=random.randint(1,3)
    t=''.join(random.choice(stmts)() for _ in range(k))
    if 'm2(' in t: t='{% macro m2(a) %}({{ caller(a) }}){% endmacro %}'+t
    print(json.dumps({"template":t,"vars":vars}))
