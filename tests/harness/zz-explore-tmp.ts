import fs from "node:fs";
import { backendRequest, neutralRequest, runStream, startBridgeStack, tool } from "./opencode-stack";
const cap = Number(process.argv[2] ?? 3);
const stack = await startBridgeStack({ maxLiveInstances: cap });
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${stack.supervisor.status().pid}/status`, "utf8"))![1]) / 1024);
const announced = (stack.sideChannel as any).announced as Map<string, number>;
let hellos = 0;
const origSet = announced.set.bind(announced);
announced.set = (k: string, v: number) => { hellos++; return origSet(k, v); };
try {
  const out: string[] = [`start ${rss()}`];
  for (let i = 0; i < 20; i++) {
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools: [tool(`t_${i}`)] })));
    if (r.error) console.log("err", r.error);
  }
  out.push(`after20new ${rss()} hellos=${hellos}`);
  for (let k = 0; k < 3; k++) for (let i = 0; i < 20; i++) {
    await runStream(stack.backend, backendRequest(neutralRequest({ tools: [tool(`t_${i}`)] })));
  }
  out.push(`after60 cycled-again ${rss()} hellos=${hellos}`);
  for (let i = 0; i < 30; i++) await runStream(stack.backend, backendRequest(neutralRequest({ tools: [tool(`t_0`)] })));
  out.push(`after30 same ${rss()} hellos=${hellos}`);
  await new Promise((r) => setTimeout(r, 5000));
  out.push(`idle5s ${rss()}`);
  console.log(`cap=${cap}`, out.join(" | "));
} finally { await stack.stop(); }
