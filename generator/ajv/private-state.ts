// Everything toolguard reads or sets inside an Ajv instance or a compiled function beyond ajv's
// public API, each checked (assumption.ts): a shape that does not match stops generation.
import type { Ajv as AjvDraft7 } from "ajv";
import type { AnyValidateFunction } from "ajv/dist/types/index.js";
import { AjvAssumptionError } from "./assumption.ts";

type AjvInstance = InstanceType<typeof AjvDraft7>;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object";

/**
 * Assumption 1: `ajv.RULES.keywords` holds every keyword the instance knows, as own keys (the
 * lint refuses any other keyword: in strict mode it would assert nothing).
 */
export function knownKeywords(ajv: AjvInstance): Readonly<Record<string, unknown>> {
  const keywords = (ajv as unknown as { RULES?: { keywords?: unknown } }).RULES?.keywords;
  if (!isObject(keywords) || !Object.hasOwn(keywords, "type") || !Object.hasOwn(keywords, "properties")) {
    throw new AjvAssumptionError("ajv.RULES.keywords lists the known keywords", "it is missing or lacks `type` and `properties`");
  }
  return keywords;
}

/**
 * Assumption 2: the names of generated values (`validate20`, `schema31`) come from counters in
 * the instance's `scope` (a ValueScope): `_names` (prefix -> counter), `_values` (prefix ->
 * Map of values) and `_scope` (prefix -> list of values). Copying them makes an instance name
 * values as if it had compiled what the original compiled (instances.ts, the meta-schema).
 */
export interface ScopeState {
  _names: Record<string, { prefix: string; index: number } | undefined>;
  _values: Record<string, Map<unknown, unknown> | undefined>;
  _scope: Record<string, unknown[] | undefined>;
}

export function scopeOf(ajv: AjvInstance): ScopeState {
  const scope = (ajv as unknown as { scope?: Partial<ScopeState> }).scope;
  if (!isObject(scope) || !isObject(scope._names) || !isObject(scope._values) || !isObject(scope._scope)) {
    throw new AjvAssumptionError("ajv.scope holds its name counters in _names, _values and _scope", "one of them is missing");
  }
  return scope as ScopeState;
}

/** A copy of a scope's counters and values, to start other instances from. */
export function snapshotScope(scope: ScopeState): ScopeState {
  const copy: ScopeState = { _names: {}, _values: {}, _scope: {} };
  restoreScope(copy, scope);
  return copy;
}

// Name groups are counters, so each instance gets its own; the names already issued are
// immutable once their value is set, so instances may share them.
export function restoreScope(target: ScopeState, from: ScopeState): void {
  for (const [prefix, group] of Object.entries(from._names)) if (group) target._names[prefix] = { ...group };
  for (const [prefix, values] of Object.entries(from._values)) if (values) target._values[prefix] = new Map(values);
  for (const [prefix, refs] of Object.entries(from._scope)) if (refs) target._scope[prefix] = [...refs];
}

/**
 * Assumption 3: a compiled function's `schemaEnv.root.refs` maps each `$ref` it compiled to the
 * compiled target, whose `validateName.str` is the name of the function printed for it. Returns
 * the functions compiled for local `$ref` targets: function name -> `#/...` location.
 */
export function referencedFunctions(validate: AnyValidateFunction): ReadonlyMap<string, string> {
  const refs = (validate as unknown as { schemaEnv?: { root?: { refs?: unknown } } }).schemaEnv?.root?.refs;
  if (!isObject(refs)) throw new AjvAssumptionError("a compiled function's schemaEnv.root.refs lists the $refs it compiled", "schemaEnv.root.refs is missing");
  const found = new Map<string, string>();
  for (const [ref, target] of Object.entries(refs)) {
    // "" is the root itself, whose paths are already right; other documents have no hints.
    if (!ref.startsWith("#/")) continue;
    // A ref to a schema without references of its own is inlined: ajv stores the schema, not a compiled env.
    if (!isObject(target) || !("validateName" in target)) continue;
    const name = (target as { validateName?: { str?: unknown } }).validateName?.str;
    if (typeof name !== "string") throw new AjvAssumptionError("a compiled $ref target names its function in validateName.str", `not a string for ${ref}`);
    found.set(name, ref);
  }
  return found;
}

/**
 * Assumption 4: ajv reads the `unevaluated` and `dynamicRef` options only while compiling, so an
 * Ajv2020 created with them and then given `false` compiles without that bookkeeping
 * (ajv-2020-static.ts). Both must exist on `opts` for the override to mean anything.
 */
export function disableDynamicTracking(opts: object): void {
  if (!("unevaluated" in opts) || !("dynamicRef" in opts)) {
    throw new AjvAssumptionError("Ajv2020 sets opts.unevaluated and opts.dynamicRef", "one of them is missing");
  }
  Object.assign(opts, { unevaluated: false, dynamicRef: false });
}

/**
 * Assumption 14: what compiling leaves in an Ajv instance, beyond its scope (assumption 2), is
 * `_cache` (a Map from each schema compiled to its SchemaEnv) and the `refs` and `schemas`
 * objects (the ids and keys added). An instance without meta-schemas starts with all three
 * empty. Emptying them and giving the scope new, empty containers returns such an instance to
 * the state it was created in (instances.ts reuses one that way). The scope's containers are
 * replaced rather than cleared, so that nothing made before (a compiled function, the meta
 * instance's snapshot) shares one with what is compiled next.
 */
export interface CompileState {
  readonly _cache: Map<unknown, unknown>;
  readonly refs: Record<string, unknown>;
  readonly schemas: Record<string, unknown>;
}

export function compileStateOf(ajv: AjvInstance): CompileState {
  const state = ajv as unknown as Partial<Record<keyof CompileState, unknown>>;
  if (!(state._cache instanceof Map) || !isObject(state.refs) || !isObject(state.schemas)) {
    throw new AjvAssumptionError("an Ajv instance keeps what it compiled in _cache (a Map), refs and schemas", "one of them is missing");
  }
  return state as CompileState;
}

/** Whether nothing was added to or compiled by `ajv` yet (scope aside): the state resetCompiled returns it to. */
export function holdsNoSchemas(ajv: AjvInstance): boolean {
  const { _cache, refs, schemas } = compileStateOf(ajv);
  return _cache.size === 0 && Object.keys(refs).length === 0 && Object.keys(schemas).length === 0;
}

/** Returns an instance created without meta-schemas to its state at creation, its scope to `created` (snapshotScope then). */
export function resetCompiled(ajv: AjvInstance, created: ScopeState): void {
  const { _cache, refs, schemas } = compileStateOf(ajv);
  _cache.clear();
  for (const key of Object.keys(refs)) delete refs[key];
  for (const key of Object.keys(schemas)) delete schemas[key];
  const scope = scopeOf(ajv);
  scope._names = {};
  scope._values = {};
  scope._scope = {};
  restoreScope(scope, created);
}
