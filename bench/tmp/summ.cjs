const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[2]));const byId=new Map(p.nodes.map(n=>[n.id,n]));
const counts=new Map();p.samples.forEach((s,i)=>counts.set(s,(counts.get(s)||0)+(p.timeDeltas[i]||0)));
const cat=new Map(), fn=new Map();
for(const [id,t] of counts){const cf=byId.get(id).callFrame;const u=cf.url;let k;
 if(u.includes("wasm"))k="pglite-wasm";else if(u.includes("pglite"))k="pglite-js";else if(u.includes("drizzle"))k="drizzle";else if(u.includes("fastify")||u.includes("find-my-way")||u.includes("avvio")||u.includes("light-my-request"))k="fastify";else if(u.includes("zod"))k="zod";else if(u.includes("/work/main/packages")||u.includes("/work/main/apps"))k="ours";else if(u==="")k=cf.functionName;else k=u.split("node_modules/").pop().split("/")[0];
 cat.set(k,(cat.get(k)||0)+t); const f=cf.functionName+" "+u.split("/").slice(-2).join("/")+":"+cf.lineNumber; fn.set(f,(fn.get(f)||0)+t);}
const tot=[...cat.values()].reduce((a,b)=>a+b,0);console.log("total ms",tot/1000);
[...cat.entries()].sort((a,b)=>b[1]-a[1]).slice(0,12).forEach(([k,t])=>console.log((t/tot*100).toFixed(1).padStart(5)+"% "+k));
console.log('--');[...fn.entries()].sort((a,b)=>b[1]-a[1]).slice(0,25).forEach(([k,t])=>console.log((t/tot*100).toFixed(1).padStart(5)+"% "+k));
