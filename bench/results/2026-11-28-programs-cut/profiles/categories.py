import sys,collections
f=sys.argv[1]
cats=[("C2","C2Compiler::compile_method"),("C1","Compiler::compile_method"),("compiler-other","CompileBroker"),("GC","G1"),("GC","GCTask"),("GC","WorkerThread"),("VMThread","VMThread"),
("fill/map bg","FileMapping.lambda$initializeInBackground"),
("probe add","BatchProber.addHashes"),("hash","KeyBatch.hashWith"),("read lines","KeyLineReader.nextBatch"),("seal checksum","CellsChecksum"),("seal","BloomFilter.seal"),
("builder other","FilterBuilder.build"),("contains","ContainsCommand"),("picocli","picocli"),("cli main","BloomstoreCli.main"),("launcher","LauncherHelper"),("classload","SystemDictionary"),("interp","Interpreter")]
c=collections.Counter(); tot=0
for line in open(f):
    s,_,n=line.rstrip().rpartition(' '); n=int(n); tot+=n
    for name,p in cats:
        if p in s: c[name]+=n; break
    else: c["other:"+s.split(';')[0][:40]]+=n
for k,v in c.most_common(): print(f"{v*100/tot:6.1f} {v:6d} {k}")
print(tot)
