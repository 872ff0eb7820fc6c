// The floor of figures 1 and 2: ajv's standalone validator for the tool's schema as written,
// what a user who compiles the schema with ajv gets. It is compiled by the generator's own
// compileValidator (same ajv options, formats and pattern engine as the package) with
// `optimise: false`, so it leaves out what toolguard adds to its own validators (combinators
// folded, no 2020-12 bookkeeping the schema does not need, union errors that count their
// branches' errors, definitions' schema paths), and is written beside the package, importing
// the package's runtime.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compileValidator, validatorModule } from "../../generator/emit/validator.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";

export type FloorValidator = ((value: unknown) => boolean) & { errors?: unknown[] | null };

/** Loads ajv's validator of `inputSchema` (a tool of the package in `generated`), as ajv compiles it. */
export async function loadFloorValidator(generated: string, name: string, inputSchema: JsonSchema): Promise<FloorValidator> {
  const dialect = /draft-07/.test(String(inputSchema["$schema"])) ? "draft-07" : "2020-12";
  const validator = compileValidator({ name, description: "", inputSchema, dialect, references: {}, source: { file: name, pointer: "" } }, { optimise: false });
  const dir = path.join(path.dirname(generated), "floor");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.js`);
  // Beside the package, importing its runtime by the package folder's own name (`generated`, or an A/B copy's).
  writeFileSync(file, validatorModule(validator).replaceAll(`from "../runtime/`, `from "../${path.basename(generated)}/runtime/`));
  return ((await import(pathToFileURL(file).href)) as { default: FloorValidator }).default;
}
