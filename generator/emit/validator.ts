// The ajv standalone validator of one tool, as an ES module that imports nothing but the
// package's own runtime. A fresh Ajv per tool keeps the output independent of what was compiled
// before it, so it is byte-stable. Every Ajv is made in generator/ajv/instances.ts, and every
// reach into ajv's internals or rewrite of its output is in generator/ajv/, checked.
import standaloneModule from "ajv/dist/standalone/index.js";
import { InputError } from "../errors.ts";
import type { ToolDescription } from "../ir.ts";
import { type AjvInstance, createAjv, reusedAjv, validateAgainstMeta } from "../ajv/instances.ts";
import { needsDynamicScope } from "../ajv/ajv-2020-static.ts";
import { qualifySchemaPaths, standaloneToEsm } from "../ajv/printed-output.ts";
import { referencedFunctions } from "../ajv/private-state.ts";
import type { ConstantValues } from "../ajv/constant-values.ts";
import { pruneWithBlanked } from "../ajv/schema-constants.ts";
import { schemaLocations } from "../ajv/schema-locations.ts";
import { stableNames } from "../ajv/stable-names.ts";
import { layOutWithBlanked } from "../ajv/layout.ts";
import { REFERENCE_KEYWORDS, someEntry } from "../schema-walk.ts";
import { foldCombinators } from "./fold-combinators.ts";
import { unknownFormatsOf } from "../read/unknown-formats.ts";

const standaloneCode = standaloneModule.default;

/**
 * A tool's standalone validator, ready to be placed in its module: the runtime imports it needs
 * (specifiers relative to the tool's folder), its code (top-level declarations, no exports) and
 * the name of the function that validates the arguments.
 */
export interface CompiledValidator {
  readonly imports: readonly string[];
  readonly code: string;
  readonly entry: string;
  /** codeOnly(code) (ajv/code-text.ts), when the compiler has it: the pass after reads it rather than blanking again. */
  readonly blanked?: string;
  /** The names `code` declares at its top level, when the pass before read them (ajv/shared-functions.ts). */
  readonly declared?: readonly string[];
}

export interface CompileOptions {
  /**
   * Compile the validator toolguard ships (default true): what the schema means rather than
   * what it says (combinators folded, fold-combinators.ts; for 2020-12 schemas that do not need
   * them, no evaluated-property tracking or dynamic scopes, ajv-2020-static.ts: same verdicts,
   * less work per call), with errors the explainer can read (union-errors.ts,
   * ajv/printed-output.ts). Off only to measure ajv's own output for the schema as written.
   */
  readonly optimise?: boolean;
}

/**
 * The Ajv that compiles `schema` and what it compiles: the schema as written, or (`optimise`)
 * the folded one, equivalent by construction. Shared by compileValidator and the tests that
 * hold the two to the same verdicts.
 */
export function prepareCompile(
  dialect: ToolDescription["dialect"],
  schema: object,
  optimise: boolean,
  /** The caller only prints what the Ajv compiles, before it calls again: it may be a reused one (instances.ts's reusedAjv). */
  printOnly = false,
): { readonly ajv: AjvInstance; readonly compiled: object } {
  // The meta-schema check runs on a shared instance (see ajv/instances.ts), so this one needs
  // the meta-schemas only when a `$ref` may reach one.
  const meta = hasNonLocalRef(schema);
  const unknown = unknownFormatsOf(schema);
  const choice = { validateSchema: false, meta, dynamicScope: !optimise || needsDynamicScope(schema), branchErrors: optimise };
  // A reused instance must stay as created: one that gets formats of its own is a new one.
  const ajv = printOnly && unknown.length === 0 ? reusedAjv(dialect, choice) : createAjv(dialect, choice);
  // A format toolguard has no checker for is an annotation (read/unknown-formats.ts warned of
  // it, or refused it where the set asks): it asserts nothing, as 2020-12 and OpenAPI define it.
  for (const { format } of unknown) ajv.addFormat(format, true);
  return { ajv, compiled: optimise ? (foldCombinators(schema) as object) : schema };
}

/** Compiles the tool's schema; ajv's errors become InputErrors naming the schema location. */
export function compileValidator(tool: ToolDescription, options: CompileOptions = {}): CompiledValidator {
  const optimise = options.optimise ?? true;
  const schema = withoutIds(tool.inputSchema) as { $schema?: string };
  const { ajv, compiled } = prepareCompile(tool.dialect, schema, optimise, true);
  let validate: ReturnType<AjvInstance["compile"]>;
  try {
    // The schema as written is checked against its meta-schema; `compiled` is what runs.
    validateAgainstMeta(ajv, () => createAjv(tool.dialect), `${tool.dialect} ${String(schema.$schema)}`, schema);
    validate = ajv.compile(compiled);
  } catch (error) {
    throw new InputError(
      tool.source,
      `the input schema of ${tool.name} does not compile: ${(error as Error).message}`,
      "correct the keyword named (toolguard compiles schemas in ajv's strict mode, so unknown keywords are refused)",
    );
  }
  const code = standaloneCode(ajv, validate);
  const functions = referencedFunctions(validate);
  // Pruning and the constants' locations read the same constants' values: parsed once.
  const values: ConstantValues = new Map();
  const esm = toEsm(optimise ? qualifySchemaPaths(code, functions) : code, tool, values);
  // Names by schema location, read before the constants are cut down (stable-names.ts), then
  // indented and commented for a reviewer (layout.ts).
  const renamed = stableNames(esm.code, { entry: esm.entry, functions, schemas: schemaLocations(code, compiled, values) }, esm.blanked);
  const laidOut = layOutWithBlanked(renamed.code, renamed.blanked);
  return { imports: esm.imports, code: laidOut.code, entry: renamed.entry, blanked: laidOut.blanked };
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

/** The validator as its module holds it, with its code's blanked copy (code-text.ts) for the passes after. */
function toEsm(source: string, tool: ToolDescription, values: ConstantValues): CompiledValidator & { readonly blanked: string } {
  const esm = standaloneToEsm(source, tool);
  const pruned = pruneWithBlanked(esm.code, esm.blanked, values);
  const code = pruned.code.trimEnd();
  // Whitespace at the end of the code is whitespace in its blanked copy, at the same offsets.
  return { imports: esm.imports, code, blanked: pruned.blanked.slice(0, code.length), entry: esm.entry };
}
