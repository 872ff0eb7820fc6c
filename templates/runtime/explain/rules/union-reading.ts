// A text sent to a union of listed words and values of other types (listmonk's `per_page`: an
// integer, or "all"): a text is a string, so the string branch is the one its type singles out,
// and that branch's enum would say `must be exactly "all"`. When the text is none of the words
// nor a near miss of one, and carries a value of another branch's type (`"+5"`, `"5 items"`,
// Python's `None`), that value is what was meant.
import type { SchemaHint } from "../../contract/tool-spec.ts";
import type { Location } from "../location.ts";
import { nearMiss } from "./enum.ts";
import { valueReading } from "./type.ts";

/** The type rule's reading of `value` against the union's types other than string; undefined when it does not apply. */
export function otherTypeReading(location: Location, value: unknown, optional: boolean): string | undefined {
  const { types, words } = location.hint;
  // Only listed words (`words`, see the hint table): a string branch with a pattern or a format could take a text that looks like a number.
  if (typeof value !== "string" || types === undefined || words === undefined) return undefined;
  const others = types.filter((type) => type !== "string");
  if (others.length === 0 || words.includes(value) || nearMiss(value, wordsHint(words)) !== undefined) return undefined;
  return valueReading(location, others.join(","), value, optional);
}

/** A hint listing the union's words, one per list: the near-miss search keeps what it derives per hint. */
function wordsHint(words: readonly string[]): SchemaHint {
  let hint = hintsOfWords.get(words);
  if (hint === undefined) hintsOfWords.set(words, (hint = { allowed: words }));
  return hint;
}

const hintsOfWords = new WeakMap<readonly string[], SchemaHint>();
