// Every rewrite of the code ajv's standalone mode prints, each checked (assumption.ts): a
// rewrite that finds nothing to rewrite stops generation, since it means ajv changed its output.
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { AjvAssumptionError, rewrite } from "./assumption.ts";
import { codeOnly, usesName, usesNameIn } from "./code-text.ts";

/** ajv's run-time helpers the generated code may require, and the name each is imported by from the package's runtime. */
const RUNTIME_HELPERS = new Map<string, string>([
  ["ajv/dist/runtime/ucs2length", "ucs2length"],
  ["ajv/dist/runtime/equal", "equal"],
]);

/** The runtime module each import of validator code comes from, under the package's runtime/ folder. */
const RUNTIME_MODULES = {
  helpers: "validate/ajv-runtime.js",
  formats: "validate/formats.js",
  pattern: "validate/pattern.js",
  uniqueItems: "validate/unique-items.js",
};

/** A tool module's way to the package's runtime/ folder (tools/<stem>.js). */
export const TOOL_RUNTIME = "../runtime";

/** A standalone validator as a tool's module holds it: imports, top-level code, the entry function's name. */
export interface EsmValidator {
  readonly imports: readonly string[];
  readonly code: string;
  /** `codeOnly(code)`, made once here for every later search of the same text. */
  readonly blanked: string;
  readonly entry: string;
}

/**
 * Assumptions 5-8, on ajv's standalone ESM output:
 * 5. it opens with `"use strict";` (dropped: a module is strict already);
 * 6. it requires run-time helpers as `require("ajv/dist/runtime/<name>").default` (made imports
 *    of the package's runtime; any other `require` is a helper toolguard does not ship);
 * 7. `uniqueItems` indexes scalars in `let|const indicesN = {};` (made prototype-free, where
 *    "__proto__" would never be stored and "toString" is already there);
 * 8. it ends with `export const validate = validateN;\nexport default validateN;`.
 */
export function standaloneToEsm(source: string, tool: ToolDescription): EsmValidator {
  let code = rewrite(source, /^"use strict";\n/, () => "", 'standalone code opens with "use strict"');
  const used = new Set<string>();
  code = code.replace(/require\("([^"]+)"\)\.default/g, (whole, module: string) => {
    const name = RUNTIME_HELPERS.get(module);
    if (!name) return whole;
    used.add(name);
    return name;
  });
  // Searches read ajv's own code only (code-text.ts): schema text may spell any of these names.
  // Blanking keeps every character of code and turns schema text into spaces and underscores, so
  // text missing from `code` is missing from its blanked copy: each search that looks for a name
  // most validators lack blanks nothing unless the name is there at all.
  const required = code.includes("require(") ? /(?<![\w$.])require\(/.exec(codeOnly(code)) : null;
  if (required) {
    throw new InputError(
      tool.source,
      `the validator of ${tool.name} needs a runtime helper toolguard does not ship: ${/^require\("[^"]*"\)/.exec(code.slice(required.index))?.[0]}`,
      "remove the keyword that needs it, or report the schema to toolguard",
    );
  }
  code = linearUniqueItems(code);
  // A helper only the replaced loops called is no longer imported.
  code = code.replace(/^const (func\d+) = equal;\n/gm, (line, name: string) => (usesName(code.replace(line, ""), name) ? line : ""));
  const indexMaps = new Set(code.includes("indices") ? codeOnly(code).match(/(?<![\w$.])indices\d*(?![\w$])/g) : null);
  if (indexMaps.size > 0)
    code = rewrite(
      code,
      /^(let|const) (indices\d*) = \{\};$/gm,
      (_whole, keyword: string, name: string) => `${keyword} ${name} = Object.create(null);`,
      "uniqueItems indexes scalars in `let|const indicesN = {};`, one line per index map",
      indexMaps.size,
    );
  const exported = /^export const validate = (validate\d+);\nexport default \1;\n/m.exec(code);
  if (!exported)
    throw new AjvAssumptionError(
      "standalone code ends by exporting its entry function as `validate` and as the default",
      `not found in the validator of ${tool.name}`,
    );
  code = code.replace(exported[0], "");
  // One blanked copy of the finished code answers every import question below, and is handed on
  // (pruneSchemaConstants reads it too).
  const blanked = codeOnly(code);
  return { imports: runtimeImports(blanked, used, TOOL_RUNTIME), code, blanked, entry: exported[1] as string };
}

/**
 * The import lines validator code needs from the package's runtime: `blanked` is codeOnly's view
 * of the code, `helpers` the ajv run-time helpers it was printed to require (ucs2length, equal),
 * `runtime` the way from the importing module's folder to runtime/.
 */
export function runtimeImports(blanked: string, helpers: Iterable<string>, runtime: string): string[] {
  const imports = [...helpers].filter((name) => usesNameIn(blanked, name)).sort();
  return [
    imports.length > 0 ? `import { ${imports.join(", ")} } from "${runtime}/${RUNTIME_MODULES.helpers}";` : "",
    usesNameIn(blanked, "formats") ? `import { formats } from "${runtime}/${RUNTIME_MODULES.formats}";` : "",
    usesNameIn(blanked, "linearRegExp") ? `import { linearRegExp } from "${runtime}/${RUNTIME_MODULES.pattern}";` : "",
    usesNameIn(blanked, "lastDuplicate") ? `import { duplicateBefore, lastDuplicate } from "${runtime}/${RUNTIME_MODULES.uniqueItems}";` : "",
  ].filter(Boolean);
}

/** The names of ajv's run-time helpers (`ucs2length`, `equal`) as validator code imports them. */
export const RUNTIME_HELPER_NAMES: readonly string[] = [...RUNTIME_HELPERS.values()];

/**
 * Assumption 9: ajv prints each compiled function at the top level, starting a line as
 * `function <name>(`, and an error's schema path as the plain string `schemaPath:"#/..."`.
 *
 * Gives errors raised inside a `$ref`'d definition the schema path of that definition. ajv
 * compiles a referenced definition that itself contains references (GitHub's rule definitions,
 * any recursive schema) into a function of its own, and that function's errors report schema
 * paths relative to the definition: `#/properties/name/enum` for
 * `#/$defs/item/properties/name/enum`. The explainer finds an error's hints (allowed values,
 * examples, descriptions) by schema path, so such an error would read the hints of whatever the
 * root schema has at `#/properties/name`: the model was told the wrong allowed values. Each such
 * function's paths are prefixed with its definition's location, the key the hint table uses.
 * `functions` comes from private-state.ts's `referencedFunctions`.
 */
export function qualifySchemaPaths(code: string, functions: ReadonlyMap<string, string>): string {
  if (functions.size === 0) return code;
  const seen = new Set<string>();
  const out = code
    .split(/^(?=function \w+\()/m)
    .map((chunk) => {
      const name = /^function (\w+)\(/.exec(chunk)?.[1] ?? "";
      const location = functions.get(name);
      if (location === undefined) return chunk;
      seen.add(name);
      const prefix = JSON.stringify(location).slice(1, -1);
      // A path that starts at a definition (`#/$defs/rule/required`) came from a `$ref` ajv
      // inlined into this function, written with the reference's own text, which toolguard makes
      // root-local: it is already qualified (issue 17: GitHub's rule kinds read their hints).
      return chunk.replace(/schemaPath:"#(?=[/"])(?!\/(?:\$defs|definitions)\/)/g, () => `schemaPath:"${prefix}`);
    })
    .join("");
  const missing = [...functions.keys()].filter((name) => !seen.has(name));
  if (missing.length > 0)
    throw new AjvAssumptionError("each function compiled for a $ref starts a line as `function <name>(`", `not found: ${missing.join(", ")}`);
  return out;
}

/**
 * Assumption 10: ajv declares each schema value its code reads as one line of JSON,
 * `const schemaN = <JSON>;` (schema-constants.ts cuts each down to what the code reads).
 */
export const SCHEMA_CONSTANT = /^const (schema\d+) = (.*);$(\n?)/gm;

/**
 * Assumption 10: ajv checks `uniqueItems` on non-scalar items by comparing every pair in a
 * labelled double loop (`outerN: for(;iN--;){ for(jN = iN; jN--;){ if(equal(data[iN], data[jN])){ ... break outerN; }}}`).
 * That is quadratic in the array's length, so the loop is replaced by a linear search over
 * canonical texts (templates/runtime/validate/unique-items.ts) that reports the same pair.
 */
function linearUniqueItems(code: string): string {
  // Both searches below start at a line `outerN:`; most validators have no such label, and a
  // substring search says so faster than a multiline pattern tried at every line.
  if (!code.includes("outer")) return code;
  const loop = /^outer(\d+):\nfor\(;(i\d+)--;\)\{\nfor\((j\d+) = \2; \3--;\)\{\nif\(\w+\((\w+)\[\2\], \4\[\3\]\)\)\{\n([\s\S]*?)break outer\1;\n\}\n\}\n\}$/gm;
  const rewritten = code.replace(
    loop,
    (_whole, _label: string, i: string, j: string, data: string, body: string) =>
      `if((${i} = lastDuplicate(${data})) !== -1){\n${j} = duplicateBefore(${data}, ${i});\n${body}}`,
  );
  if (/^outer\d+:$/m.test(rewritten))
    throw new AjvAssumptionError("uniqueItems compares every pair in a labelled double loop", "the loop has another shape; it would stay quadratic");
  return rewritten;
}
