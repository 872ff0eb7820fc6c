// One generation in a fresh process (node --expose-gc), for growth.test.ts's memory oracle:
// reads, translates and emits every tool of the OpenAPI document named on the command line and
// prints, as JSON, the heap it holds at its peak: the largest live heap (after a full GC) at the
// step boundaries (the document read, then each tool emitted), less the live heap before (modules
// loaded, one tiny document generated, so the generator's code and caches are in). Live heap
// after a GC, unlike resident memory, does not depend on when V8 chose to collect, so one run
// per size gives a ratio that means something; a fresh process per size keeps one size's
// caches out of the other's figure. Resident memory's peak is printed beside it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { emitTool } from "../../generator/emit/tool-files.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("growth-memory-child.ts needs node --expose-gc");
const gc = collect;

/** The live heap now, after a full collection. */
function liveHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

async function generate(file: string, sample: () => void): Promise<{ tools: number; bytes: number }> {
  const read = readOpenApi(await loadOpenApiDocument(file, { root: path.dirname(file) }));
  sample();
  let bytes = 0;
  for (const tool of read.tools) {
    for (const emitted of await emitTool(tool)) bytes += emitted.content.length;
    sample();
  }
  return { tools: read.tools.length, bytes };
}

const [file, warmUp] = process.argv.slice(2) as [string, string];
writeFileSync(
  warmUp,
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "warm up", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/a": {
        post: {
          operationId: "a",
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { a: { type: "string" } } } } } },
          responses: { "200": { description: "ok" } },
        },
      },
    },
  }),
);
await generate(warmUp, () => {});
const before = liveHeap();
let peak = before;
const result = await generate(file, () => {
  peak = Math.max(peak, liveHeap());
});
process.stdout.write(`${JSON.stringify({ ...result, heapAddedKb: Math.round((peak - before) / 1024), maxRssKb: process.resourceUsage().maxRSS })}\n`);
