// The passes over ajv's printed code (generator/ajv/: toEsm, pruning, schemaLocations,
// stableNames, layOut, and the cut into shared modules, shared-functions.ts) on GitHub's 1,221 validators, each pass's CPU on its own: the part of
// generation that issue 30's names and layout added to. ajv compiles every validator once,
// untimed; the passes then run on what it printed, `--runs` times (default 5), and the least CPU
// of each pass is printed with a hash of every output (the same hash = the same bytes).
// Kept for generator work, not part of the table: `npx node bench/printed-code-passes.ts`.
import standaloneModule from "ajv/dist/standalone/index.js";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { qualifySchemaPaths, standaloneToEsm } from "../generator/ajv/printed-output.ts";
import { referencedFunctions } from "../generator/ajv/private-state.ts";
import * as schemaConstants from "../generator/ajv/schema-constants.ts";
import { schemaLocations } from "../generator/ajv/schema-locations.ts";
import { stableNames } from "../generator/ajv/stable-names.ts";
import * as layout from "../generator/ajv/layout.ts";
import { splitSharedFunctions } from "../generator/ajv/shared-functions.ts";
import { prepareCompile } from "../generator/emit/validator.ts";
import type { ToolDescription } from "../generator/ir.ts";
import { readSchemaSet } from "../generator/read/index.ts";
import { GITHUB_SPEC } from "./lib/fixtures.ts";

const { pruneSchemaConstants, pruneWithBlanked } = schemaConstants as typeof schemaConstants & { pruneWithBlanked?: typeof schemaConstants.pruneWithBlanked };
const { layOutWithBlanked } = layout as typeof layout & { layOutWithBlanked?: typeof layout.layOutWithBlanked };
const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1, not ${values.runs}`);

const dir = mkdtempSync(path.join(tmpdir(), "toolguard-passes-"));
let tools: readonly ToolDescription[];
try {
  copyFileSync(GITHUB_SPEC, path.join(dir, "api.github.com.json"));
  tools = (await readSchemaSet(dir, { allowNetwork: false, strict: false })).tools;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// What ajv printed for each tool, as compileValidator has it before the passes.
const printed = tools.map((tool) => {
  const { ajv, compiled } = prepareCompile(tool.dialect, tool.inputSchema as object, true);
  const validate = ajv.compile(compiled);
  return { tool, compiled, code: standaloneModule.default(ajv, validate), functions: referencedFunctions(validate) };
});

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const least: Record<string, number> = {};
let digest = "";
for (let run = 0; run < runs; run++) {
  const spent: Record<string, number> = {};
  const timed = <T>(pass: string, work: () => T): T => {
    const start = cpuMs();
    const result = work();
    spent[pass] = (spent[pass] ?? 0) + cpuMs() - start;
    return result;
  };
  const hash = createHash("sha256");
  for (const { tool, compiled, code, functions } of printed) {
    const esm = timed("toEsm", () => standaloneToEsm(qualifySchemaPaths(code, functions), tool));
    // pruneWithBlanked hands its blanked copy on; a tree without it blanks again in stableNames.
    const cut = timed("prune", () =>
      pruneWithBlanked ? pruneWithBlanked(esm.code, esm.blanked) : { code: pruneSchemaConstants(esm.code), blanked: undefined },
    );
    const pruned = cut.code.trimEnd();
    const schemas = timed("schemaLocations", () => schemaLocations(code, compiled));
    const renamed = timed("stableNames", () => stableNames(pruned, { entry: esm.entry, functions, schemas }, cut.blanked?.slice(0, pruned.length)));
    // layOutWithBlanked hands its blanked copy on; a tree without it blanks again in the split.
    const laid = timed("layOut", () =>
      layOutWithBlanked ? layOutWithBlanked(renamed.code, renamed.blanked) : { code: layout.layOut(renamed.code, renamed.blanked), blanked: undefined },
    );
    const laidOut = laid.code;
    const split = timed("split", () => splitSharedFunctions(laidOut, renamed.entry, esm.imports, laid.blanked));
    hash.update(esm.imports.join("\n")).update(laidOut).update(renamed.entry);
    hash.update(split.imports.join("\n")).update(split.code);
    for (const shared of split.shared) hash.update(shared.file).update(shared.code);
  }
  spent.total = Object.values(spent).reduce((sum, ms) => sum + ms, 0);
  for (const [pass, ms] of Object.entries(spent)) least[pass] = Math.min(least[pass] ?? Number.POSITIVE_INFINITY, Math.round(ms));
  digest = hash.digest("hex").slice(0, 12);
}
console.log(JSON.stringify({ validators: printed.length, runs, leastCpuMs: least, outputHash: digest }));
