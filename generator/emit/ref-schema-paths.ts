// Gives errors raised inside a `$ref`'d definition the schema path of that definition.
//
// ajv compiles a referenced definition that itself contains references (GitHub's rule
// definitions, any recursive schema) into a function of its own, and that function's errors
// report schema paths relative to the definition: `#/properties/name/enum` for
// `#/$defs/item/properties/name/enum`. The explainer finds an error's hints (allowed values,
// examples, descriptions) by schema path, so such an error would read the hints of whatever the
// root schema has at `#/properties/name`: the model was told the wrong allowed values. Each such
// function's paths are prefixed with its definition's location, the key the hint table uses.
import type { AnyValidateFunction } from "ajv/dist/types/index.js";

interface CompiledEnv {
  readonly refs: Record<string, unknown>;
  readonly root: CompiledEnv;
}

/** The functions ajv compiled for local `$ref` targets: function name -> `#/...` location. */
export function referencedFunctions(validate: AnyValidateFunction): ReadonlyMap<string, string> {
  const env = (validate as unknown as { schemaEnv?: CompiledEnv }).schemaEnv;
  const found = new Map<string, string>();
  for (const [ref, target] of Object.entries(env?.root.refs ?? {})) {
    const name = (target as { validateName?: { str?: unknown } } | null)?.validateName?.str;
    // "" is the root itself, whose paths are already right; other documents have no hints.
    if (typeof name === "string" && ref.startsWith("#/")) found.set(name, ref);
  }
  return found;
}

/** `code` with the schema paths inside each function of `functions` placed under its location. */
export function qualifySchemaPaths(code: string, functions: ReadonlyMap<string, string>): string {
  if (functions.size === 0) return code;
  // ajv writes each function at the top level, starting a line: split before each of them.
  return code
    .split(/^(?=function \w+\()/m)
    .map((chunk) => {
      const location = functions.get(/^function (\w+)\(/.exec(chunk)?.[1] ?? "");
      if (location === undefined) return chunk;
      const prefix = JSON.stringify(location).slice(1, -1);
      // An error literal's schema path is a plain string: `schemaPath:"#/properties/a/type"`.
      // A path that starts at a definition (`#/$defs/rule/required`) came from a `$ref` ajv
      // inlined into this function, written with the reference's own text, which toolguard makes
      // root-local: it is already qualified (issue 17: GitHub's rule kinds read their hints).
      return chunk.replace(/schemaPath:"#(?=[/"])(?!\/(?:\$defs|definitions)\/)/g, () => `schemaPath:"${prefix}`);
    })
    .join("");
}
