// Build time half of the near-miss lookup (runtime half: templates/runtime/explain/spelling.ts):
// each allowed string's normal form, and that form with one character deleted, mapped to the
// string. The runtime deletes up to two characters from what it received and looks each up.
import { normaliseNearMiss } from "../../templates/runtime/explain/near-miss.ts";

/** Sets larger than this get no table: the suggestion would rarely stand out, and the table would be large. */
export const MAX_SPELLED_VALUES = 64;
/** Values longer than this are not spelled out. */
const MAX_SPELLED_LENGTH = 40;

export function spellingTable(values: readonly unknown[]): Record<string, string | string[]> | undefined {
  const strings = values.filter((value): value is string => typeof value === "string");
  if (strings.length === 0 || strings.length > MAX_SPELLED_VALUES) return undefined;
  const table = new Map<string, string[]>();
  const add = (key: string, value: string): void => {
    const list = table.get(key);
    if (list === undefined) table.set(key, [value]);
    else if (!list.includes(value)) list.push(value);
  };
  for (const value of strings) {
    const key = normaliseNearMiss(value);
    if (key.length < 2 || key.length > MAX_SPELLED_LENGTH) continue;
    add(key, value);
    for (let i = 0; i < key.length; i++) add(key.slice(0, i) + key.slice(i + 1), value);
    // A dropped two-letter ending (`select` for `selected`) is the one two-edit miss kept on this side.
    if (key.length >= 6) add(key.slice(0, -2), value);
  }
  if (table.size === 0) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const key of [...table.keys()].sort()) {
    const list = table.get(key) as string[];
    out[key] = list.length === 1 ? (list[0] as string) : list;
  }
  return out;
}
