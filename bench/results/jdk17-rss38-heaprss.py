import re,sys,os,subprocess
d=os.path.dirname(sys.argv[1]); pid=sys.argv[2]
info=os.path.join(d,'heapinfo.txt')
if not os.path.exists(info):
    open(info,'w').write(subprocess.run(['jcmd',pid,'GC.heap_info'],capture_output=True,text=True).stdout)
m=re.search(r'\[(0x[0-9a-f]+), (0x[0-9a-f]+)\)',open(info).read())
lo=int(m.group(1),16); hi=int(m.group(2),16)
tot=0;inside=False
for l in open('/proc/%s/smaps'%pid):
    mm=re.match(r'([0-9a-f]+)-([0-9a-f]+) ',l)
    if mm: a=int(mm.group(1),16); inside = lo<=a<hi
    elif inside and l.startswith('Rss:'): tot+=int(l.split()[1])
print(tot)
