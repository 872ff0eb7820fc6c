// The ajv standalone validator of one tool, as an ES module that imports nothing but the
// package's own runtime. A fresh Ajv per tool keeps the output independent of what was compiled
// before it, so it is byte-stable.
import { _, Ajv as AjvDraft7, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";
import { validateAgainstMeta } from "./meta-validation.ts";
import { linearRegExp } from "../../templates/runtime/validate/pattern.ts";
import { pruneSchemaConstants } from "./schema-constants.ts";
import { REFERENCE_KEYWORDS, someEntry } from "../schema-walk.ts";
import { foldCombinators } from "./fold-combinators.ts";
import { Ajv2020Static, needsDynamicScope } from "./ajv-2020-static.ts";
import { countBranchErrors } from "./union-errors.ts";
import { qualifySchemaPaths, referencedFunctions } from "./ref-schema-paths.ts";

type AjvInstance = InstanceType<typeof AjvDraft7>;
const standaloneCode = standaloneModule.default;

/** Where the generated validator imports its helpers from, relative to the tool's folder. */
const RUNTIME_IMPORTS = new Map<string, string>([
  ["ajv/dist/runtime/ucs2length", "ucs2length"],
  ["ajv/dist/runtime/equal", "equal"],
]);

export function ajvOptions(): Options {
  return {
    allErrors: true,
    // Unknown keywords and formats are schema defects: refuse them rather than ignore them.
    strict: true,
    strictRequired: false,
    strictTypes: false,
    strictTuples: false,
    // `$data` turns instance data into schema values, a code path chosen by the model.
    $data: false,
    // `required: ["toString"]` must not be met by Object.prototype: only own properties count.
    ownProperties: true,
    unicodeRegExp: true,
    validateFormats: true,
    // Patterns run on RE2 (linear time), here and in the generated code alike: see pattern.ts.
    code: { source: true, esm: true, lines: true, formats: _`formats`, regExp: linearRegExp },
  };
}

export interface AjvChoice {
  /** Check schemas against the meta-schema as they are added (default true). */
  readonly validateSchema?: boolean;
  /**
   * Load the meta-schemas (default true). They only serve checking a schema (`validateSchema`)
   * and `$ref`s to their URLs, and make up most of creating an instance.
   */
  readonly meta?: boolean;
  /**
   * For 2020-12 without meta-schemas: track evaluated properties and dynamic scopes (default
   * true). Off only for schemas without `unevaluated*` or `$dynamicRef` (ajv-2020-static.ts).
   */
  readonly dynamicScope?: boolean;
  /**
   * Union errors say which errors their branches left (default true; union-errors.ts), which
   * the explainer needs. Off only for ajv's own output, as the benchmark's floor.
   */
  readonly branchErrors?: boolean;
}

/** An Ajv for `dialect`, with toolguard's options, formats and keywords. */
export function createAjv(dialect: ToolDescription["dialect"], choice: AjvChoice = {}): AjvInstance {
  const { validateSchema = true, meta = true, dynamicScope = true, branchErrors = true } = choice;
  const options = { ...ajvOptions(), validateSchema, meta };
  const ajv: AjvInstance =
    dialect !== "2020-12" ? new AjvDraft7(options) : !dynamicScope && !meta ? (new Ajv2020Static(options) as AjvInstance) : new Ajv2020(options);
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  // Formats the runtime does not check are annotations, as JSON Schema 2020-12 defines them.
  for (const name of ANNOTATION_FORMATS) ajv.addFormat(name, true);
  ajv.addKeyword({ keyword: "example" });
  if (branchErrors) countBranchErrors(ajv);
  return ajv;
}

/** Formats kept in the schema for the model to read but not asserted. */
export const ANNOTATION_FORMATS: readonly string[] = [
  "int32", "int64", "float", "double", "byte", "binary", "password", "uri-reference", "iri", "iri-reference",
  "uri-template", "idn-email", "idn-hostname", "json-pointer", "relative-json-pointer", "regex", "color", "phone",
];

/**
 * A tool's standalone validator, ready to be placed in its module: the runtime imports it needs
 * (specifiers relative to the tool's folder), its code (top-level declarations, no exports) and
 * the name of the function that validates the arguments.
 */
export interface CompiledValidator {
  readonly imports: readonly string[];
  readonly code: string;
  readonly entry: string;
}

export interface CompileOptions {
  /**
   * Compile the validator toolguard ships (default true): what the schema means rather than
   * what it says (combinators folded, fold-combinators.ts; for 2020-12 schemas that do not need
   * them, no evaluated-property tracking or dynamic scopes, ajv-2020-static.ts: same verdicts,
   * less work per call), with errors the explainer can read (union-errors.ts,
   * ref-schema-paths.ts). Off only to measure ajv's own output for the schema as written.
   */
  readonly optimise?: boolean;
}

/**
 * The Ajv that compiles `schema` and what it compiles: the schema as written, or (`optimise`)
 * the folded one, equivalent by construction. Shared by compileValidator and the tests that
 * hold the two to the same verdicts.
 */
export function prepareCompile(dialect: ToolDescription["dialect"], schema: object, optimise: boolean): { readonly ajv: AjvInstance; readonly compiled: object } {
  // The meta-schema check runs on a shared instance (see meta-validation.ts), so this one needs
  // the meta-schemas only when a `$ref` may reach one.
  const meta = hasNonLocalRef(schema);
  const ajv = createAjv(dialect, { validateSchema: false, meta, dynamicScope: !optimise || needsDynamicScope(schema), branchErrors: optimise });
  return { ajv, compiled: optimise ? (foldCombinators(schema) as object) : schema };
}

/** Compiles the tool's schema; ajv's errors become InputErrors naming the schema location. */
export function compileValidator(tool: ToolDescription, options: CompileOptions = {}): CompiledValidator {
  const optimise = options.optimise ?? true;
  const schema = withoutIds(tool.inputSchema) as { $schema?: string };
  const { ajv, compiled } = prepareCompile(tool.dialect, schema, optimise);
  let validate: ReturnType<AjvInstance["compile"]>;
  try {
    // The schema as written is checked against its meta-schema; `compiled` is what runs.
    validateAgainstMeta(ajv, () => createAjv(tool.dialect), `${tool.dialect} ${String(schema.$schema)}`, schema);
    validate = ajv.compile(compiled);
  } catch (error) {
    throw new InputError(tool.source, `the input schema of ${tool.name} does not compile: ${(error as Error).message}`, "correct the keyword named (toolguard compiles schemas in ajv's strict mode, so unknown keywords and formats are refused)");
  }
  const code = standaloneCode(ajv, validate);
  return toEsm(optimise ? qualifySchemaPaths(code, referencedFunctions(validate)) : code, tool);
}

/** The validator alone as an ES module whose default export validates (for tests and benchmarks). */
export function validatorModule(validator: CompiledValidator): string {
  return [...validator.imports, validator.code, `export { ${validator.entry} as validate, ${validator.entry} as default };`, ""].join("\n");
}

// `$id` changes nothing once references are local, and ajv pastes it into a comment of the
// generated code, where `*/` in an id would end the comment: drop it before compiling.
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$id" && typeof child === "string") continue;
    out[key] = withoutIds(child);
  }
  return out;
}

/** Whether any `$ref`-like keyword (or data that looks like one) points outside the schema. */
function hasNonLocalRef(schema: unknown): boolean {
  return someEntry(schema, (key, child) => REFERENCE_KEYWORDS.has(key) && !(typeof child === "string" && child.startsWith("#")));
}

function toEsm(source: string, tool: ToolDescription): CompiledValidator {
  const used = new Set<string>();
  let code = source.replace(/require\("([^"]+)"\)\.default/g, (whole, module: string) => {
    const name = RUNTIME_IMPORTS.get(module);
    if (!name) return whole;
    used.add(name);
    return name;
  });
  if (code.includes("require(")) {
    throw new InputError(tool.source, `the validator of ${tool.name} needs a runtime helper toolguard does not ship: ${/require\("[^"]*"\)/.exec(code)?.[0]}`, "remove the keyword that needs it, or report the schema to toolguard");
  }
  const imports = [...used].sort();
  const header = [
    imports.length > 0 ? `import { ${imports.join(", ")} } from "../runtime/validate/ajv-runtime.js";` : "",
    code.includes("formats.") || code.includes("formats[") ? `import { formats } from "../runtime/validate/formats.js";` : "",
    /\blinearRegExp\b/.test(code) ? `import { linearRegExp } from "../runtime/validate/pattern.js";` : "",
  ].filter(Boolean);
  // ajv finds duplicate scalars in `uniqueItems` through a plain `{}`, where "__proto__" is
  // never stored and "toString" is already there: index them in an object without a prototype.
  code = code.replace(/\b(let|const) (indices\d*) = \{\};/g, "$1 $2 = Object.create(null);");
  code = code.replace(/^"use strict";\n/, "");
  // ajv exports its entry point twice (`export const validate = validate20; export default
  // validate20;`); the tool's module refers to it by name instead.
  const exported = /^export const validate = (validate\d+);\nexport default \1;\n/m.exec(code);
  if (!exported) throw new Error(`the standalone code of ${tool.name} does not export its validator as toolguard expects`);
  code = code.replace(exported[0], "");
  return { imports: header, code: pruneSchemaConstants(code).trimEnd(), entry: exported[1] as string };
}
