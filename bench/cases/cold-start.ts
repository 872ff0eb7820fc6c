// Figure 3, one fresh process: from before the first import to the first outcome of one call,
// with every tool of the package bound. `generated <github|ten>`: import the generated package,
// bind every tool (`implement`), then guard one call of issues/create. `ajv`: read GitHub's
// input schemas, compile each with ajv at run time (what a runtime-validating client does at
// start-up), then validate the same call. Prints one JSON line: `readyMs` to every tool bound
// (compiled), `ms` to the first outcome, `importMs` to the end of the imports (generated) or of
// reading the schemas (ajv), `cpuMs`, the process's CPU time including Node's own start-up, and
// `ownCpuMs`, the CPU time of this script's work alone.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { VALID } from "../lib/bodies.ts";
import { FULL, SCRATCH, TEN } from "../lib/fixtures.ts";

export const SCHEMA_DUMP = path.join(SCRATCH, "github-input-schemas.json");

const TOOL = "issues_create";
const BODY = JSON.stringify(VALID[TOOL]);
const mode = process.argv[2];
const start = performance.now();
const startCpu = process.cpuUsage();
let ready = 0;
let imported = start;
let readyAt = start;
let outcome = "";
type Guarded = { call(raw: unknown, context: object): Promise<{ status: string }> };
if (mode === "github" || mode === "ten") {
  const pkg = (await import(pathToFileURL(path.join(mode === "github" ? FULL : TEN, "generated/index.js")).href)) as {
    tools: Record<string, { implement(impl: () => unknown, options: object): Guarded }>;
  };
  imported = performance.now();
  const ledger = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
  const bound: Record<string, Guarded> = {};
  for (const [name, tool] of Object.entries(pkg.tools)) if ((bound[name] = tool.implement(() => undefined, { ledger }))) ready++;
  readyAt = performance.now();
  outcome = (await bound[TOOL]?.call(BODY, { turn: "cold" }))?.status ?? "no such tool";
} else if (mode === "ajv") {
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const schemas = JSON.parse(readFileSync(SCHEMA_DUMP, "utf8")) as { name: string; schema: object }[];
  imported = performance.now();
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const compiled: Record<string, (data: unknown) => boolean> = {};
  for (const { name, schema } of schemas) if ((compiled[name] = ajv.compile(schema))) ready++;
  readyAt = performance.now();
  outcome = compiled[TOOL]?.(JSON.parse(BODY)) ? "ok" : "invalid";
} else if (mode === "dump") {
  const { writeFileSync } = await import("node:fs");
  const pkg = (await import(pathToFileURL(path.join(FULL, "generated/index.js")).href)) as { tools: Record<string, { name: string; inputSchema: object }> };
  writeFileSync(SCHEMA_DUMP, JSON.stringify(Object.values(pkg.tools).map((tool) => ({ name: tool.name, schema: tool.inputSchema }))));
  ready = Object.keys(pkg.tools).length;
  outcome = "ok";
} else throw new Error("usage: cold-start.ts github|ten|ajv|dump");
if (outcome !== "ok") throw new Error(`cold start: the first call's outcome is ${outcome}, not ok`);
const cpu = process.cpuUsage();
const ownCpu = process.cpuUsage(startCpu);
// `ownCpuMs`: CPU from before the first import to the first outcome (Node's own start-up left
// out); on a shared machine it moves far less than wall time.
console.log(
  JSON.stringify({
    mode,
    ms: performance.now() - start,
    readyMs: readyAt - start,
    importMs: imported - start,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ownCpuMs: (ownCpu.user + ownCpu.system) / 1000,
    ready,
  }),
);
