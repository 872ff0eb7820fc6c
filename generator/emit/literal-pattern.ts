// A `pattern` that spells its whole set of texts out (`^new$`, `^(me|self)$`, `^(?:all|none)$`):
// NginxProxyManager's `certificate_id` is an integer or `pattern: "^new$"`, the words of an
// `enum` written as a regular expression. Read as words, such a branch is explained like an enum
// branch (union-members.ts, wordsOf); any other pattern can take texts nobody can list.

/** A word of a literal pattern: letters, digits and `_`, `-`, `.`, `:` or a space, `\`-escaped punctuation. */
const WORD = /^(?:[A-Za-z0-9_ :-]|\\[.\-_/+*?()[\]{}|^$])+$/;

/** The texts a fully anchored literal pattern accepts, or undefined for any other pattern. */
export function literalPatternWords(pattern: string): string[] | undefined {
  const anchored = /^\^(.*)\$$/s.exec(pattern)?.[1];
  if (anchored === undefined || anchored === "") return undefined;
  const grouped = /^\((?:\?:)?([^()]*)\)$/.exec(anchored)?.[1];
  const body = grouped ?? anchored;
  const alternatives = body.split("|");
  // A bare `a|b` between the anchors is `^a` or `b$`, not one of two words.
  if (grouped === undefined && alternatives.length > 1) return undefined;
  if (!alternatives.every((alternative) => WORD.test(alternative))) return undefined;
  return alternatives.map((alternative) => alternative.replace(/\\(.)/g, "$1"));
}
