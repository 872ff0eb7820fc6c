// The floor of figures 1 and 2: a tool's standalone validator on its own. It lives inside the
// tool's module, which exports only the tool, so it is compiled again here by the generator's
// own compileValidator (the code the module contains) and written beside the package, importing
// the package's runtime.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compileValidator, validatorModule } from "../../generator/emit/validator.ts";
import type { JsonSchema } from "../../templates/runtime/tool-spec.ts";

export type FloorValidator = ((value: unknown) => boolean) & { errors?: unknown[] | null };

/** Loads the validator of `inputSchema` (a tool of the package in `generated`) as the package ships it. */
export async function loadFloorValidator(generated: string, name: string, inputSchema: JsonSchema): Promise<FloorValidator> {
  const dialect = /draft-07/.test(String(inputSchema["$schema"])) ? "draft-07" : "2020-12";
  const validator = compileValidator({ name, description: "", inputSchema, dialect, references: {}, source: { file: name, pointer: "" } });
  const dir = path.join(path.dirname(generated), "floor");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.js`);
  writeFileSync(file, validatorModule(validator).replaceAll(`from "../runtime/`, `from "../generated/runtime/`));
  return ((await import(pathToFileURL(file).href)) as { default: FloorValidator }).default;
}
