// Compiles one schema through the generator's emit path (lint, then the standalone ESM validator)
// and imports the module it wrote, with its runtime imports pointed at templates/runtime.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { lintSchema } from "../../generator/emit/lint-schema.ts";
import { createAjv } from "../../generator/ajv/instances.ts";
import { compileValidator, validatorModule } from "../../generator/emit/validator.ts";
import type { ToolDescription } from "../../generator/ir.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";

const RUNTIME = path.resolve(import.meta.dirname, "../../templates/runtime");
const dir = mkdtempSync(path.join(tmpdir(), "toolguard-hostile-"));
let count = 0;

export type LoadedValidator = ((data: unknown) => boolean) & { errors?: readonly { keyword: string; instancePath: string }[] | null };

export function toolOf(inputSchema: Record<string, unknown>): ToolDescription {
  return {
    name: "hostile",
    description: "",
    inputSchema: inputSchema as JsonSchema,
    dialect: "2020-12",
    references: {},
    source: { file: "hostile.json", pointer: "" },
  };
}

/** The emitted module's text and its loaded default export. */
export async function emitAndLoad(inputSchema: Record<string, unknown>): Promise<{ code: string; validate: LoadedValidator }> {
  const tool = toolOf(inputSchema);
  lintSchema(tool, createAjv(tool.dialect));
  const code = validatorModule(compileValidator(tool));
  const file = path.join(dir, `v${count++}.mjs`);
  writeFileSync(
    file,
    code.replace(/from "\.\.\/runtime\/([\w/-]+)\.js"/g, (_w, name: string) => `from ${JSON.stringify(pathToFileURL(path.join(RUNTIME, `${name}.ts`)).href)}`),
  );
  const validate = ((await import(pathToFileURL(file).href)) as { default: LoadedValidator }).default;
  return { code, validate };
}
