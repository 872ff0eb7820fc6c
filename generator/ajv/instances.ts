// Every Ajv instance generation uses is made here, with toolguard's options, formats and
// keywords, and lives one of three lifetimes:
//   lint      one per dialect for the process (lintAjv): the lint reads only its keyword list;
//   meta      one per dialect and `$schema` for the process (validateAgainstMeta): it compiles
//             the meta-schema once, where compiling it per tool cost ~10 ms each, most of a
//             GitHub-sized run;
//   compile   a fresh one per tool (createAjv, through validator.ts's prepareCompile), which
//             keeps each validator's output independent of what was compiled before: byte-stable.
//             Where only the printed code is wanted (compileValidator), one per choice for the
//             process (reusedAjv), returned before each tool to the state it was created in:
//             creating an instance (its vocabularies, formats and keywords) was ~3% of a
//             GitHub-sized run.
// The generated code names its values with counters of the instance's scope, and compiling the
// meta-schema first used to advance them (`validate20`, `schema31`). To keep the output
// byte-identical, a fresh instance starts from a copy of the scope the meta instance had right
// after compiling its meta-schema, exactly as if it had compiled the meta-schema itself.
import { _, Ajv as AjvDraft7, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ToolDescription } from "../ir.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";
import { linearRegExp } from "../../templates/runtime/validate/pattern.ts";
import { Ajv2020Static } from "./ajv-2020-static.ts";
import { holdsNoSchemas, resetCompiled, restoreScope, type ScopeState, scopeOf, snapshotScope } from "./private-state.ts";
import { countBranchErrors } from "./union-errors.ts";

export type AjvInstance = InstanceType<typeof AjvDraft7>;

export function ajvOptions(): Options {
  return {
    allErrors: true,
    // Unknown keywords and formats are schema defects: refuse them rather than ignore them.
    strict: true,
    strictRequired: false,
    strictTypes: false,
    strictTuples: false,
    // A pattern matching a declared property is legal JSON Schema: both schemas apply to the
    // value, as ajv's code does either way; strict mode only refused the schema (issue 32).
    allowMatchingProperties: true,
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

/** A new Ajv for `dialect`, with toolguard's options, formats and keywords. */
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

/**
 * Formats kept in the schema for the model to read but not asserted: by their definition they
 * allow any string (OpenAPI's `binary` and `password` describe storage and display). Every other
 * format is asserted (templates/runtime/validate/formats.ts) or, unknown, refused.
 */
export const ANNOTATION_FORMATS: readonly string[] = ["binary", "password"];

interface ReusedInstance {
  readonly ajv: AjvInstance;
  /** Its scope as created, which resetCompiled returns it to. */
  readonly created: ScopeState;
}

const reusedInstances = new Map<string, ReusedInstance>();

/**
 * createAjv(dialect, choice), or the same instance again, returned to the state it was created
 * in (private-state.ts, assumption 14): it compiles exactly what a new one would, to the same
 * code. Only for a caller that prints what it compiles and never runs a function compiled
 * before its next call, and never adds formats or keywords. Choices with meta-schemas get a
 * new instance each time (compiling a `$ref` to one would leave it compiled).
 */
export function reusedAjv(dialect: ToolDescription["dialect"], choice: AjvChoice = {}): AjvInstance {
  if (choice.meta !== false) return createAjv(dialect, choice);
  const key = JSON.stringify([dialect, choice.validateSchema ?? true, choice.dynamicScope ?? true, choice.branchErrors ?? true]);
  const reused = reusedInstances.get(key);
  if (reused) {
    resetCompiled(reused.ajv, reused.created);
    return reused.ajv;
  }
  const ajv = createAjv(dialect, choice);
  if (!holdsNoSchemas(ajv)) return ajv;
  reusedInstances.set(key, { ajv, created: snapshotScope(scopeOf(ajv)) });
  return ajv;
}

const lintInstances = new Map<ToolDescription["dialect"], AjvInstance>();

/** The process's Ajv for linting schemas of `dialect` (lint-schema.ts reads its keyword list). */
export function lintAjv(dialect: ToolDescription["dialect"]): AjvInstance {
  let ajv = lintInstances.get(dialect);
  if (!ajv) lintInstances.set(dialect, (ajv = createAjv(dialect)));
  return ajv;
}

interface WarmInstance {
  readonly ajv: AjvInstance;
  readonly scope: ScopeState;
}

const metaInstances = new Map<string, WarmInstance>();

/**
 * Throws ajv's own "schema is invalid: ..." error when `schema` fails its meta-schema, then
 * readies `fresh` (created with `validateSchema: false`) to compile as if it had validated it.
 * `key` names the meta-schema (dialect and `$schema`); `create` makes the instance that checks it.
 */
export function validateAgainstMeta(fresh: AjvInstance, create: () => AjvInstance, key: string, schema: object): void {
  let shared = metaInstances.get(key);
  if (!shared) {
    const ajv = create();
    // Compiles and caches the meta-schema this schema's `$schema` names.
    ajv.validateSchema(schema);
    shared = { ajv, scope: snapshotScope(scopeOf(ajv)) };
    metaInstances.set(key, shared);
  }
  if (!shared.ajv.validateSchema(schema)) throw new Error(`schema is invalid: ${shared.ajv.errorsText(shared.ajv.errors)}`);
  restoreScope(scopeOf(fresh), shared.scope);
}
