// Words that name the same value in the vocabulary of APIs: a model that writes `ascending`
// where the list has `asc`, `remove` where it has `delete`, or `on` where it has `enabled`. A
// synonym is offered only when exactly one allowed value shares the received word's group, so
// the schema and the word determine it; a list holding two words of one group offers nothing.
// The groups are plain English for generic API choices, never one vendor's or one tool's.
import { normaliseNearMiss } from "./near-miss.ts";

const GROUPS: readonly (readonly string[])[] = [
  ["asc", "ascending", "increasing", "oldest"],
  ["desc", "descending", "decreasing", "newest"],
  ["yes", "true", "on", "enabled", "enable"],
  ["no", "false", "off", "disabled", "disable"],
  ["delete", "remove", "destroy", "erase"],
  ["create", "add", "new", "insert"],
  ["update", "edit", "modify", "change"],
  ["get", "fetch", "read", "retrieve"],
  ["markdown", "md"],
  ["text", "plain", "plaintext", "txt"],
  ["jpeg", "jpg"],
  ["large", "big"],
  ["small", "little"],
  ["all", "any", "every"],
  ["start", "begin"],
  ["end", "finish", "stop"],
  ["html", "htm"],
  ["yaml", "yml"],
];

/** Each word's normal form to the words of its group (normal forms too). */
const BY_WORD = new Map<string, readonly string[]>();
for (const group of GROUPS) for (const word of group) BY_WORD.set(normaliseNearMiss(word), group.map(normaliseNearMiss));

/**
 * The one value among `normalForms` (the allowed strings' normal forms) that shares `text`'s
 * synonym group, or undefined: none, or more than one. `key`: `text`'s normal form, when the
 * caller has it.
 */
export function synonymOf(text: string, normalForms: Iterable<string>, key: string = normaliseNearMiss(text)): string | undefined {
  const group = BY_WORD.get(key);
  if (group === undefined) return undefined;
  let found: string | undefined;
  for (const normal of normalForms) {
    if (!group.includes(normal)) continue;
    if (found !== undefined) return undefined;
    found = normal;
  }
  return found;
}
