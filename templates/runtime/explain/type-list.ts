// ajv's `type` parameter of a type error: a type name, or the schema's own list of them (the
// validator passes the schema's array, the same one every time). Read once per list as the
// messages read it: the comma-separated text ("integer,string,null"), its names, and the text
// without `null` (what a nullable location wants when a value is sent), instead of joining and
// splitting it again on every error.

export interface TypeList {
  /** ajv's comma-separated list, as `String(type)` reads. */
  readonly text: string;
  readonly types: readonly string[];
  /** `text` without `null`. */
  readonly nonNull: string;
}

/** By ajv's parameter (a string, or the schema's array) and by its text: the schemas bound them. */
const lists = new Map<unknown, TypeList>();
/** A bound all the same, should a validator pass a list made per call: past it, lists are read each time. */
const MAX_LISTS = 4096;

export function typeListOf(type: unknown): TypeList {
  let list = lists.get(type);
  if (list === undefined) {
    const text = String(type);
    list = lists.get(text);
    if (list === undefined) {
      const types = text.split(",");
      list = { text, types, nonNull: types.filter((name) => name !== "null").join(",") };
      if (lists.size < MAX_LISTS) lists.set(text, list);
    }
    if (lists.size < MAX_LISTS) lists.set(type, list);
  }
  return list;
}
