// Checks schemas against their dialect's meta-schema with one shared Ajv per dialect, so that a
// fresh Ajv per tool (which keeps each validator's output independent of the others) does not
// compile the meta-schema again: that compile cost ~10 ms per tool, most of a GitHub-sized run.
//
// The generated code names its values with counters of the Ajv instance's scope, and compiling
// the meta-schema first used to advance them (`validate20`, `schema31`). To keep the output
// byte-identical, a fresh instance starts from a copy of the scope the shared instance had right
// after compiling its meta-schema, exactly as if it had compiled the meta-schema itself.
import type { Ajv as AjvDraft7 } from "ajv";

type AjvInstance = InstanceType<typeof AjvDraft7>;

/** The parts of ajv's (internal) ValueScope that decide the names of generated values. */
interface ScopeState {
  _names: Record<string, { prefix: string; index: number } | undefined>;
  _values: Record<string, Map<unknown, unknown> | undefined>;
  _scope: Record<string, unknown[] | undefined>;
}

interface WarmInstance {
  readonly ajv: AjvInstance;
  readonly scope: ScopeState;
}

const warm = new Map<string, WarmInstance>();

/**
 * Throws ajv's own "schema is invalid: ..." error when `schema` fails its meta-schema, then
 * readies `fresh` (created with `validateSchema: false`) to compile as if it had validated it.
 */
export function validateAgainstMeta(fresh: AjvInstance, create: () => AjvInstance, key: string, schema: object): void {
  let shared = warm.get(key);
  if (!shared) {
    const ajv = create();
    // Compiles and caches the meta-schema this schema's `$schema` names.
    ajv.validateSchema(schema);
    shared = { ajv, scope: snapshot((ajv as unknown as { scope: ScopeState }).scope) };
    warm.set(key, shared);
  }
  if (!shared.ajv.validateSchema(schema)) throw new Error(`schema is invalid: ${shared.ajv.errorsText(shared.ajv.errors)}`);
  restore((fresh as unknown as { scope: ScopeState }).scope, shared.scope);
}

function snapshot(scope: ScopeState): ScopeState {
  const copy: ScopeState = { _names: {}, _values: {}, _scope: {} };
  restore(copy, scope);
  return copy;
}

// Name groups are counters, so each instance gets its own; the names already issued are
// immutable once their value is set, so instances may share them.
function restore(target: ScopeState, from: ScopeState): void {
  for (const [prefix, group] of Object.entries(from._names)) if (group) target._names[prefix] = { ...group };
  for (const [prefix, values] of Object.entries(from._values)) if (values) target._values[prefix] = new Map(values);
  for (const [prefix, refs] of Object.entries(from._scope)) if (refs) target._scope[prefix] = [...refs];
}
