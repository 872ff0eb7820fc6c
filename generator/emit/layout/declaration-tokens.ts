// The tokens of the TypeScript subset declaration-layout.ts lays out, and a cursor over them.
// Anything outside the subset throws OutsideSubset, and the caller asks TypeScript itself.

/** Thrown on anything this layout does not know; caught by `layOutDeclarations`. */
export class OutsideSubset extends Error {}

export interface Token {
  readonly kind: "name" | "string" | "number" | "punct" | "end";
  readonly text: string;
  /** Whether a line break precedes the token (after any comments). */
  readonly lineBreakBefore: boolean;
  /** JSDoc blocks between the previous token and this one, as printed. */
  readonly comments: readonly Comment[];
}

export interface Comment {
  /** The comment's lines, each trimmed, as TypeScript's `writeCommentRange` takes them. */
  readonly lines: readonly { readonly indent: number; readonly text: string }[];
  /** The comment's own column in the source, against which its later lines are re-indented. */
  readonly column: number;
  /** Whether a line break follows the comment (else the printer writes a space). */
  readonly newlineAfter: boolean;
}

const PUNCTUATION = ["...", "{", "}", "[", "]", "(", ")", "<", ">", ",", ";", ":", "?", "|", "&", "=", "-"];
const NAME = /[A-Za-z_$][\w$]*/y;
const NUMBER = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\n\r\u2028\u2029]|\\.)*"/y;
/** TypeScript's printer indents by four spaces; print-declarations.ts halves it. */
export const INDENT = "    ";

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  let lineBreak = false;
  let comments: Comment[] = [];
  const push = (kind: Token["kind"], value: string): void => {
    tokens.push({ kind, text: value, lineBreakBefore: lineBreak, comments });
    at += value.length;
    lineBreak = false;
    comments = [];
  };
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    return pattern.exec(text)?.[0];
  };
  while (at < text.length) {
    const char = text[at] as string;
    if (char === "\n") {
      lineBreak = true;
      at++;
    } else if (char === " " || char === "\t") {
      at++;
    } else if (text.startsWith("/*", at)) {
      const end = text.indexOf("*/", at + 2);
      if (end < 0) throw new OutsideSubset();
      comments.push(comment(text, at, end + 2));
      at = end + 2;
    } else if (char === '"') {
      const literal = match(STRING);
      if (literal === undefined) throw new OutsideSubset();
      push("string", literal);
    } else if (/[A-Za-z_$]/.test(char)) {
      push("name", match(NAME) as string);
    } else if (/\d/.test(char)) {
      push("number", match(NUMBER) as string);
    } else {
      const punct = PUNCTUATION.find((candidate) => text.startsWith(candidate, at));
      if (punct === undefined) throw new OutsideSubset();
      push("punct", punct);
    }
  }
  push("end", "");
  return tokens;
}

// A block comment as TypeScript's `writeCommentRange` sees it: its first line at the comment's
// column, each later line by its own leading whitespace, every line trimmed.
function comment(text: string, start: number, end: number): Comment {
  const body = text.slice(start, end);
  if (!body.startsWith("/**") || /[\r\u2028\u2029]/.test(body)) throw new OutsideSubset();
  const lines = body.split("\n").map((line, index) => ({ indent: index === 0 ? 0 : leadingWidth(line), text: line.trim() }));
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  let after = end;
  while (text[after] === " " || text[after] === "\t") after++;
  return { lines, column: leadingWidth(text.slice(lineStart, start)), newlineAfter: text[after] === "\n" || after === text.length };
}

/** Columns of a line's leading spaces and tabs, tabs to the next multiple of four. */
function leadingWidth(line: string): number {
  let width = 0;
  for (const char of line) {
    if (char === " ") width++;
    else if (char === "\t") width += 4 - (width % 4);
    else break;
  }
  return width;
}

// The printer does not reuse a string literal's source text (the source file has no parent
// links, print-declarations.ts): it prints the string's value escaped its own way, non-ASCII
// characters as `\uXXXX` (TypeScript's `escapeNonAsciiString`).
const ESCAPED = /[\\"\u0000-\u001f\u2028\u2029\u0085]|[^\u0000-\u007f]/g;
const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  "\t": "\\t",
  "\v": "\\v",
  "\f": "\\f",
  "\b": "\\b",
  "\r": "\\r",
  "\n": "\\n",
  "\\": "\\\\",
  '"': '\\"',
};

export function stringLiteral(source: string): string {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    throw new OutsideSubset();
  }
  const escaped = (value as string).replace(ESCAPED, (char, offset: number, text: string) => {
    if (char === "\0") return /[0-9]/.test(text[offset + 1] ?? "") ? "\\x00" : "\\0";
    return NAMED_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  });
  return `"${escaped}"`;
}

/** Reads tokens in order. A token carrying comments that no statement or member claimed is outside the subset. */
export class TokenCursor {
  readonly #tokens: Token[];
  #at = 0;
  /** The token whose comments were written as leading comments; any other token's are refused. */
  #commented = -1;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  /** The current token's comments, claimed: the printer writes them as leading comments. */
  claimComments(): readonly Comment[] {
    this.#commented = this.#at;
    return this.peek().comments;
  }

  /** Whether comments precede `token` that were not written as a statement's or member's. */
  stray(token: Token): boolean {
    return token.comments.length > 0 && this.#tokens[this.#commented] !== token;
  }

  peek(): Token {
    return this.#tokens[this.#at] as Token;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind === "end") throw new OutsideSubset();
    this.#at++;
    return token;
  }

  name(): string {
    const token = this.next();
    if (token.kind !== "name" || this.stray(token)) throw new OutsideSubset();
    return token.text;
  }

  expect(text: string): void {
    const token = this.next();
    if (token.text !== text || this.stray(token)) throw new OutsideSubset();
  }

  optional(text: string): boolean {
    const token = this.peek();
    if (token.text !== text || token.kind === "string" || this.stray(token)) return false;
    this.#at++;
    return true;
  }
}
