// The tokens of ajv's printed code that stable-names.ts renames: names not after `.` and the
// brackets, read from codeOnly's blanked copy (so no schema text is ever a token), by hand,
// because a regular expression's match object per token was most of that pass.
/** The tokens every pass reads: a name not after `.` (nor inside a longer one), or a bracket. tokenize reads it by hand. */
export const TOKEN = /(?<![\w$.])[A-Za-z_$][\w$]*|[{}()]/g;

/**
 * The tokens of the blanked code each pass reads: names and brackets, each with its offset.
 * Two parallel arrays, not an object per token: a large validator has ~100,000 tokens.
 */
export interface Tokens {
  readonly text: readonly string[];
  readonly at: readonly number[];
}

/**
 * What TOKEN matches, read by hand: its matches are exactly the runs of `[\w$]` that start with a
 * letter, `_` or `$` and do not follow a `.` (inside a run the lookbehind fails at every later
 * character), and each bracket. A regular expression's match object per token was most of this
 * pass on GitHub's validators; test/generator/printed-code-passes.test.ts holds the two together.
 */
export function tokenize(blanked: string): Tokens {
  const text: string[] = [];
  const at: number[] = [];
  const length = blanked.length;
  let index = 0;
  while (index < length) {
    const char = blanked.charCodeAt(index);
    if (char === 0x7b || char === 0x7d || char === 0x28 || char === 0x29) {
      text.push(blanked[index] as string);
      at.push(index);
      index++;
    } else if (isWordChar(char)) {
      const start = index;
      while (index < length && isWordChar(blanked.charCodeAt(index))) index++;
      if (!isDigit(char) && blanked.charCodeAt(start - 1) !== 0x2e) {
        text.push(blanked.slice(start, index));
        at.push(start);
      }
    } else index++;
  }
  return { text, at };
}

/** `[\w$]`: ASCII letters, digits, `_` and `$` (`\w` without the `u` flag). */
function isWordChar(char: number): boolean {
  return (char >= 0x61 && char <= 0x7a) || (char >= 0x41 && char <= 0x5a) || isDigit(char) || char === 0x5f || char === 0x24;
}

function isDigit(char: number): boolean {
  return char >= 0x30 && char <= 0x39;
}
