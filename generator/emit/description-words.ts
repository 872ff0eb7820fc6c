// The words of a required field's description that another name for it may be: `head` is
// described as "The name of the branch where your changes are implemented", so a call holding
// `branch` and no `head` most likely means it. Short, common words are left out.

const STOP_WORDS: ReadonlySet<string> = new Set([
  "the",
  "and",
  "for",
  "not",
  "this",
  "that",
  "with",
  "from",
  "into",
  "your",
  "you",
  "are",
  "was",
  "were",
  "will",
  "can",
  "may",
  "must",
  "should",
  "which",
  "where",
  "when",
  "what",
  "who",
  "how",
  "use",
  "used",
  "using",
  "set",
  "sets",
  "value",
  "values",
  "name",
  "names",
  "field",
  "fields",
  "object",
  "objects",
  "string",
  "number",
  "list",
  "array",
  "true",
  "false",
  "null",
  "only",
  "also",
  "each",
  "any",
  "all",
  "its",
  "their",
  "they",
  "them",
  "has",
  "have",
  "been",
  "being",
  "more",
  "most",
  "see",
  "via",
  "required",
  "optional",
  "default",
  "example",
  "provided",
  "specified",
  "new",
  "one",
  "two",
  "type",
  "types",
  "returns",
]);
/** Words kept per field, at most: the first ones, which name the thing rather than its details. */
const MAX_WORDS = 12;

/** Lower-case words of `description` (no stop words, none of `properties`' names), at most MAX_WORDS. */
export function descriptionWords(description: string, properties: readonly string[]): string[] {
  const taken = new Set(properties.map((name) => name.toLowerCase()));
  const words: string[] = [];
  for (const match of description.toLowerCase().matchAll(/[a-z][a-z_]{2,}/g)) {
    const word = match[0].replace(/_/g, "");
    if (STOP_WORDS.has(word) || taken.has(word) || words.includes(word)) continue;
    words.push(word);
    if (words.length === MAX_WORDS) break;
  }
  return words;
}
