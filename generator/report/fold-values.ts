// What the report's fold reads out of an entry's attempts: the location an error is counted
// under (array items folded into one), and the value the model sent there, as short JSON text.

/** Longest offending value shown, in characters (the ledger is anyone's to write). */
export const MAX_VALUE_CHARS = 80;
/** Longest argument pointer kept, in characters: past it, pointers are cut (and so merged). */
const MAX_POINTER_CHARS = 200;

/** `/line_items/3/quantity` -> `/line_items/*\/quantity`: one location for every item of an array. */
export function wildcard(pointer: string): string {
  const shown = pointer.replace(/\/\d+(?=\/|$)/g, "/*");
  return shown.length > MAX_POINTER_CHARS ? `${shown.slice(0, MAX_POINTER_CHARS - 1)}…` : shown;
}

export function lastToken(pointer: string): string {
  const token = pointer.slice(pointer.lastIndexOf("/") + 1);
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The attempt's raw text parsed, when it is whole (not cut, not redacted) and JSON. */
export function parseRaw(attempt: Record<string, unknown>): { value: unknown } | undefined {
  if (attempt.rawLength !== undefined || attempt.redacted !== undefined || typeof attempt.raw !== "string") return undefined;
  try {
    return { value: JSON.parse(attempt.raw) };
  } catch {
    return undefined;
  }
}

/** The value at `pointer` as JSON text, cut to MAX_VALUE_CHARS; undefined when there is none. */
export function valueText(root: unknown, pointer: string): string | undefined {
  let value = root;
  if (pointer !== "")
    for (const token of pointer.slice(1).split("/")) {
      if (value === null || typeof value !== "object") return undefined;
      value = (value as Record<string, unknown>)[token.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
