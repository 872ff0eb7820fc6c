// One schema location as ajv names it (`#/properties/currency/enum`): its hint, and the parts of
// a message about it that do not depend on the received value, built on first use. ajv's schema
// paths are string constants in the validator, so the map is bounded by the schema, and the
// second error at a location costs a lookup instead of listing, quoting and joining again.
import type { AjvError, HintTable, SchemaHint } from "../contract/tool-spec.ts";

export interface Location {
  readonly hint: SchemaHint;
  readonly fixed: Map<string, string>;
}

const locationsByTable = new WeakMap<HintTable, Map<string, Location>>();

export const NO_HINT: SchemaHint = Object.freeze({});

export function locate(error: AjvError, hints: HintTable): Location {
  let bySchemaPath = locationsByTable.get(hints);
  if (bySchemaPath === undefined) locationsByTable.set(hints, (bySchemaPath = new Map()));
  let location = bySchemaPath.get(error.schemaPath);
  if (location === undefined) {
    const at = error.schemaPath.lastIndexOf("/");
    location = { hint: hints[at > 0 ? error.schemaPath.slice(0, at) : "#"] ?? NO_HINT, fixed: new Map() };
    bySchemaPath.set(error.schemaPath, location);
  }
  return location;
}

/** The fixed text `key` of `location`, made by `make` the first time it is asked for. */
export function fixed(location: Location, key: string, make: () => string): string {
  let text = location.fixed.get(key);
  if (text === undefined) location.fixed.set(key, (text = make()));
  return text;
}
