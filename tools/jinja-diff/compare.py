"""Runs the same JSON lines through the C++ driver and the Rust example and
lists the differences: compare.py render|caps|dump FILE.jsonl [max_shown]."""
import json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.environ.get('JINJA_DRIVER', os.path.join(HERE, 'driver'))
RUST = os.environ.get('JINJA_RUST', os.path.expanduser('~/.cache/promptscope/target-jinja/debug/examples/render_jsonl'))
mode=sys.argv[1]; inp=sys.argv[2]
args = [mode] if mode in ('caps','dump') else []
lines=open(inp).read().splitlines()
data='\n'.join(lines)+'\n'
a=subprocess.run([DRIVER]+args,input=data.encode(),capture_output=True).stdout.decode('utf-8','replace').splitlines()
b=subprocess.run([RUST]+args,input=data.encode(),capture_output=True).stdout.decode().splitlines()
bad=0
for i,l in enumerate(lines):
    x=json.loads(a[i]) if i<len(a) else {'error':'<cpp crashed>'}
    x={k:(bytes.fromhex(v).decode('utf-8','replace') if isinstance(v,str) else v) for k,v in x.items()}
    y=json.loads(b[i]) if i<len(b) else {'error':'<rust crashed>'}
    if x!=y:
        bad+=1
        if bad<=int(sys.argv[3] if len(sys.argv)>3 else 5):
            r=json.loads(l)
            print('MISMATCH', r.get('name'), r['template'][:200] if 'name' not in r else '', json.dumps(r.get('vars'))[:200])
            print('  cpp :', json.dumps(x)[:1500]); print('  rust:', json.dumps(y)[:1500])
print(f'{len(lines)-bad}/{len(lines)} equal (cpp lines {len(a)}, rust {len(b)})')
