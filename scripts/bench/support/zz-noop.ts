import { openAsBlob } from "node:fs";
import { writeFile } from "node:fs/promises";
import { describeInEnglish } from "../../../lib/events/event-csv";
import { startEventImport } from "../../../lib/events/start-import";
const N = 100000;
const homeTime = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
const lines = ["identityType,identityValue,event,date,targetId,targetName,source,score,carModel,visits:number,price:money"];
for (let i = 0; i < N; i++) lines.push(`bench-a,U-${i % 5000},${i % 2 ? "open_page" : "c_x"},${homeTime(Date.now() - 86400000 + i * 1000)},p-1,"页面",bench,1,${i % 2 ? "" : "X"},${i % 2 ? "" : 3},${i % 2 ? "" : 1.5}`);
await writeFile("/tmp/ce-n.csv", lines.join("\r\n"));
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  const o = await startEventImport({ stream: (await openAsBlob("/tmp/ce-n.csv")).stream() as never, send: async (b) => void JSON.stringify(b), describe: describeInEnglish, rule: "date" });
  await (o as any).run.done; console.log("no-op send", Math.round(N / ((performance.now() - t) / 1000)), "ev/s");
}
