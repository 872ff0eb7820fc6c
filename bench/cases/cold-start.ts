// Figure 3, one fresh process: make every GitHub tool ready to guard a call, timed from before
// the first import. `generated`: import the generated package and bind every tool. `ajv`: read
// the same input schemas and compile each with ajv at run time (what a runtime-validating
// client does at start-up). Prints one JSON line: `ms` from before the first import to the last
// tool ready, `importMs` to the end of the imports (generated) or of reading the schemas (ajv),
// and `cpuMs`, the process's CPU time including Node's own start-up (steadier than wall time on
// a shared machine).
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { FULL, SCRATCH } from "../lib/fixtures.ts";

export const SCHEMA_DUMP = path.join(SCRATCH, "github-input-schemas.json");

const mode = process.argv[2];
const start = performance.now();
let ready = 0;
let imported = start;
if (mode === "generated") {
  const pkg = (await import(pathToFileURL(path.join(FULL, "generated/index.js")).href)) as {
    tools: Record<string, { implement(impl: () => unknown, options: object): unknown }>;
  };
  imported = performance.now();
  const ledger = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
  for (const tool of Object.values(pkg.tools)) if (tool.implement(() => undefined, { ledger })) ready++;
} else if (mode === "ajv") {
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const schemas = JSON.parse(readFileSync(SCHEMA_DUMP, "utf8")) as object[];
  imported = performance.now();
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  for (const schema of schemas) if (ajv.compile(schema)) ready++;
} else if (mode === "dump") {
  const { writeFileSync } = await import("node:fs");
  const pkg = (await import(pathToFileURL(path.join(FULL, "generated/index.js")).href)) as { tools: Record<string, { inputSchema: object }> };
  writeFileSync(SCHEMA_DUMP, JSON.stringify(Object.values(pkg.tools).map((tool) => tool.inputSchema)));
  ready = Object.keys(pkg.tools).length;
} else throw new Error("usage: cold-start.ts generated|ajv|dump");
const cpu = process.cpuUsage();
console.log(JSON.stringify({ mode, ms: performance.now() - start, importMs: imported - start, cpuMs: (cpu.user + cpu.system) / 1000, ready }));
