// One schema location as ajv names it (`#/properties/currency/enum`): its hint, and the parts of
// a message about it that do not depend on the received value, built on first use. ajv's schema
// paths are string constants in the validator, so the map is bounded by the schema, and the
// second error at a location costs a lookup instead of listing, quoting and joining again.
import type { AjvError, HintTable, SchemaHint } from "../contract/tool-spec.ts";

export interface Location {
  readonly hint: SchemaHint;
  readonly fixed: Map<string, string>;
  /** Answers about received texts (which near miss a spelling is), at most MAX_REMEMBERED. */
  remembered?: Map<string, string | undefined>;
  /**
   * Whole messages by received text, for a message that follows from the location and that text
   * alone (rules/enum.ts: a value outside the set that spells a near miss; rules/type.ts: a text
   * of the wrong type, the key marked with whether the field is optional), at most MAX_REMEMBERED.
   */
  messages?: Map<string, string>;
  /** The end of a near miss's message by the value meant (rules/enum.ts): one per allowed value. */
  meant?: Map<string, string>;
}

/** Received texts whose near miss is remembered per location: models repeat their mistakes, but the texts are theirs, so the memory is capped. */
const MAX_REMEMBERED = 32;
/** Longer texts are never remembered (nor looked up: see explain/spelling.ts). */
const MAX_REMEMBERED_LENGTH = 64;

const locationsByTable = new WeakMap<HintTable, Map<string, Location>>();

export const NO_HINT: SchemaHint = Object.freeze({});

export function locate(error: AjvError, hints: HintTable): Location {
  let bySchemaPath = locationsByTable.get(hints);
  if (bySchemaPath === undefined) locationsByTable.set(hints, (bySchemaPath = new Map()));
  let location = bySchemaPath.get(error.schemaPath);
  if (location === undefined) {
    const at = error.schemaPath.lastIndexOf("/");
    const key = at > 0 ? error.schemaPath.slice(0, at) : "#";
    location = { hint: hints[key] ?? asWritten(key, hints) ?? NO_HINT, fixed: new Map() };
    bySchemaPath.set(error.schemaPath, location);
  }
  return location;
}

/**
 * The validator is compiled from a schema whose disjoint `oneOf`s became `anyOf`s
 * (generator/emit/fold-combinators.ts), so an error inside a branch names `.../anyOf/0/...`
 * where the hint table, built from the schema as written, has `.../oneOf/0/...`. A path may
 * cross both (a folded `oneOf` inside an `anyOf` as written: `anyOf/0/anyOf/1` for
 * `anyOf/0/oneOf/1`), so the table's keys are read with every combinator spelt `anyOf`, once per
 * table. Looked up only when the path as reported has no hint, once per schema path.
 */
function asWritten(key: string, hints: HintTable): SchemaHint | undefined {
  if (!key.includes("/anyOf/")) return undefined;
  let spelt = speltByTable.get(hints);
  if (spelt === undefined) {
    spelt = new Map();
    for (const written of Object.keys(hints)) {
      const folded = written.replaceAll("/oneOf/", "/anyOf/");
      // Two keys that fold alike (a node with both an `anyOf` and a `oneOf`): neither is read.
      spelt.set(folded, spelt.has(folded) ? undefined : (hints[written] as SchemaHint));
    }
    speltByTable.set(hints, spelt);
  }
  return spelt.get(key);
}

/** Per hint table, its keys with every `oneOf` spelt `anyOf`, to the hint (undefined where two collide). */
const speltByTable = new WeakMap<HintTable, Map<string, SchemaHint | undefined>>();

/** The fixed text `key` of `location`, made by `make` the first time it is asked for. */
export function fixed(location: Location, key: string, make: () => string): string {
  let text = location.fixed.get(key);
  if (text === undefined) location.fixed.set(key, (text = make()));
  return text;
}

/**
 * What `make` answers for the received `text` at `location`, computed once per text while fewer
 * than MAX_REMEMBERED texts are remembered there (then computed every time).
 */
export function remember(location: Location, text: string, make: () => string | undefined): string | undefined {
  if (text.length > MAX_REMEMBERED_LENGTH) return make();
  const memory = (location.remembered ??= new Map());
  if (memory.has(text)) return memory.get(text);
  const answer = make();
  if (memory.size < MAX_REMEMBERED) memory.set(text, answer);
  return answer;
}

/** The message remembered at `location` for the received `text`, if any (see `rememberMessage`). */
export function rememberedMessage(location: Location, text: string): string | undefined {
  return location.messages?.get(text);
}

/**
 * Keeps `message` as what `location` says of the received `text`, which must decide it alone:
 * models repeat their mistakes, and the second time the message is a lookup. Capped as `remember` is.
 */
export function rememberMessage(location: Location, text: string, message: string): void {
  if (text.length > MAX_REMEMBERED_LENGTH) return;
  const messages = (location.messages ??= new Map());
  if (messages.size < MAX_REMEMBERED) messages.set(text, message);
}
