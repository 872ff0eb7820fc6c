// Runs the official JSON Schema Test Suite through toolguard's own generation path and reports
// every case as pass, fail or unsupported.
//
// Each test schema becomes a tool the way a schema file does: `$ref`s bundled by the confined
// loader (bundleRefs) and made local (localizeSchema), then linted (lintSchema) and compiled to
// the standalone ESM validator (compileValidator), which is written to disk and imported. One
// test-only step differs from the reader: the suite's root schemas are often not objects
// (`{"minimum": 1}`, `true`), which the tool reader refuses, so this entry skips only that rule.
// The suite's fake server `http://localhost:1234/` is mapped to a copy of `remotes/` under the
// schema root, so remote refs go through the same confined file resolver as a user's files.
//
// Every instance is also checked by ajv compiled in memory with the same options from the same
// schema: the generated module must agree with it on every case it compiles.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { bundleRefs } from "../../generator/load/load-document.ts";
import { localizeSchema } from "../../generator/load/localize-schema.ts";
import { lintSchema } from "../../generator/emit/lint-schema.ts";
import { createAjv } from "../../generator/ajv/instances.ts";
import { compileValidator, validatorModule } from "../../generator/emit/validator.ts";
import type { Dialect, ToolDescription } from "../../generator/ir.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";

/** The JSON Schema Test Suite, vendored (see its SOURCE file for the upstream commit). */
export const SUITE: string = path.resolve(import.meta.dirname, "../fixtures/json-schema-test-suite");
const RUNTIME = path.resolve(import.meta.dirname, "../../templates/runtime");
const FAKE_SERVER = "http://localhost:1234/";

export const DRAFTS: Readonly<Record<string, Dialect>> = { "draft2020-12": "2020-12", draft7: "draft-07" };

export type Verdict = "pass" | "fail" | "unsupported";

export interface CaseResult {
  /** `draft/keyword/group description/test description`. */
  readonly id: string;
  readonly draft: string;
  readonly keyword: string;
  readonly verdict: Verdict;
  /** Why a case is unsupported (the generator's error) or failed (expected vs. got). */
  readonly detail?: string;
  /** The generated module and in-memory ajv disagreed (must never happen). */
  readonly disagreement?: boolean;
}

interface SuiteGroup {
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

export async function runSuite(drafts: readonly string[] = Object.keys(DRAFTS)): Promise<CaseResult[]> {
  const root = mkdtempSync(path.join(tmpdir(), "toolguard-conformance-"));
  try {
    cpSync(path.join(SUITE, "remotes"), root, { recursive: true });
    const results: CaseResult[] = [];
    for (const draft of drafts) results.push(...(await runDraft(draft, root)));
    return results;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function runDraft(draft: string, root: string): Promise<CaseResult[]> {
  const dialect = DRAFTS[draft] as Dialect;
  const lintAjv = createAjv(dialect);
  let memoryAjv = createAjv(dialect);
  const out = path.join(root, `.out-${draft}`);
  mkdirSync(out);
  const results: CaseResult[] = [];
  const dir = path.join(SUITE, "tests", draft);
  let counter = 0;
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const keyword = file.slice(0, -".json".length);
    const groups = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as SuiteGroup[];
    for (const group of groups) {
      const ids = group.tests.map((test) => `${draft}/${keyword}/${group.description}/${test.description}`);
      const caseFile = path.join(root, `case-${draft}-${counter++}.json`);
      let generated: Validate;
      let memory: Validate;
      try {
        const schema = await asToolSchema(group.schema, caseFile, root, dialect);
        const tool: ToolDescription = {
          name: "conformance",
          description: "",
          inputSchema: schema as JsonSchema,
          dialect,
          references: {},
          source: { file: path.basename(caseFile), pointer: "" },
        };
        lintSchema(tool, lintAjv);
        const modulePath = path.join(out, `v${counter}.mjs`);
        writeFileSync(modulePath, linkRuntime(validatorModule(compileValidator(tool))));
        generated = ((await import(pathToFileURL(modulePath).href)) as { default: Validate }).default;
        try {
          memory = memoryAjv.compile(withoutIds(schema) as object) as Validate;
        } catch {
          // Anchors without an `$id` all live at one base URI: a fresh instance avoids clashes.
          memoryAjv = createAjv(dialect);
          memory = memoryAjv.compile(withoutIds(schema) as object) as Validate;
        }
      } catch (error) {
        const reason = firstLine(error);
        for (const id of ids) results.push({ id, draft, keyword, verdict: "unsupported", detail: reason });
        continue;
      }
      group.tests.forEach((test, index) => {
        const id = ids[index] as string;
        let got: boolean;
        let expectedByAjv: boolean;
        try {
          got = generated(structuredClone(test.data));
          expectedByAjv = memory(structuredClone(test.data));
        } catch (error) {
          results.push({ id, draft, keyword, verdict: "fail", detail: `threw: ${firstLine(error)}` });
          return;
        }
        const disagreement = got !== expectedByAjv;
        if (got === test.valid && !disagreement) results.push({ id, draft, keyword, verdict: "pass" });
        else
          results.push({
            id,
            draft,
            keyword,
            verdict: "fail",
            detail: `expected ${test.valid ? "valid" : "invalid"}, got ${got ? "valid" : "invalid"}`,
            ...(disagreement ? { disagreement } : {}),
          });
      });
    }
  }
  return results;
}

/** The reader's path minus the object-root rule: bundle `$ref`s under the root, make them local. */
async function asToolSchema(schema: unknown, caseFile: string, root: string, dialect: Dialect): Promise<unknown> {
  if (typeof schema === "boolean") return schema;
  const mapped = JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === "$ref" && typeof value === "string" && value.startsWith(FAKE_SERVER) ? `./${value.slice(FAKE_SERVER.length)}` : value,
  ) as unknown;
  writeFileSync(caseFile, JSON.stringify(mapped));
  const bundled = await bundleRefs(caseFile, mapped, { root });
  return localizeSchema(bundled, "", { file: path.basename(caseFile), defsKeyword: dialect === "2020-12" ? "$defs" : "definitions" });
}

/** Points the module's `../runtime/*.js` imports at the runtime's TypeScript sources. */
function linkRuntime(code: string): string {
  return code.replace(
    /from "\.\.\/runtime\/([\w/-]+)\.js"/g,
    (_whole, name: string) => `from ${JSON.stringify(pathToFileURL(path.join(RUNTIME, `${name}.ts`)).href)}`,
  );
}

function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, child]) => !(key === "$id" && typeof child === "string"))
      .map(([key, child]) => [key, withoutIds(child)]),
  );
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 300) ?? "";
}

/** Counts per draft and keyword. */
export function tally(results: readonly CaseResult[]): Map<string, Record<Verdict, number>> {
  const table = new Map<string, Record<Verdict, number>>();
  for (const result of results) {
    for (const key of [`${result.draft}\t${result.keyword}`, `${result.draft}\t*`]) {
      const row = table.get(key) ?? { pass: 0, fail: 0, unsupported: 0 };
      row[result.verdict]++;
      table.set(key, row);
    }
  }
  return table;
}
