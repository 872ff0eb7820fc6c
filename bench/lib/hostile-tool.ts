// The guarded tool the hostile payloads are sent to: HOSTILE_SCHEMA compiled by the generator's
// own compileValidator (the validator a generated package ships), bound in-process with the
// runtime from templates/runtime and a ledger that keeps nothing (the figure measures the guard).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildCoercionTable } from "../../generator/emit/coercion-table.ts";
import { compileValidator, validatorModule } from "../../generator/emit/validator.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { GuardedTool } from "../../templates/runtime/contract/api.ts";
import type { InputSchema, JsonSchema, StandaloneValidator } from "../../templates/runtime/contract/tool-spec.ts";
import type { LedgerSink } from "../../templates/runtime/ledger/ledger.ts";
import { HOSTILE_SCHEMA } from "./hostile-payloads.ts";

const RUNTIME = path.resolve(import.meta.dirname, "../../templates/runtime");

/** `schema` as the generator's description of a tool. */
function describedTool(schema: object) {
  return {
    name: "hostile",
    description: "",
    inputSchema: schema as JsonSchema,
    dialect: "2020-12" as const,
    references: {},
    source: { file: "hostile.json", pointer: "" },
  };
}

/** Writes the standalone validator of `schema` to a scratch file and imports it. */
export async function loadValidator(schema: object): Promise<StandaloneValidator> {
  const code = validatorModule(compileValidator(describedTool(schema)));
  const file = path.join(mkdtempSync(path.join(tmpdir(), "toolguard-hostile-bench-")), "validator.mjs");
  writeFileSync(
    file,
    code.replace(
      /from "\.\.\/runtime\/([\w/-]+)\.js"/g,
      (_whole, name: string) => `from ${JSON.stringify(pathToFileURL(path.join(RUNTIME, `${name}.ts`)).href)}`,
    ),
  );
  return ((await import(pathToFileURL(file).href)) as { default: StandaloneValidator }).default;
}

const DISCARD: LedgerSink = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };

/** The guarded hostile tool; every call gets a fresh turn, so no budget ends a run early. */
export async function hostileTool(): Promise<GuardedTool<string>> {
  const validate = await loadValidator(HOSTILE_SCHEMA);
  // The generator's own coercion table, so a payload of numeric strings is coerced as in a package.
  const coercions = buildCoercionTable(describedTool(HOSTILE_SCHEMA));
  const spec = { name: "hostile", description: "", inputSchema: HOSTILE_SCHEMA as unknown as InputSchema, validate, coercions, hints: {}, references: {} };
  return defineTool(spec).implement(() => "ok", { ledger: DISCARD });
}
