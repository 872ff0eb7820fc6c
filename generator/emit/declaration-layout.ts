// Lays out a tool's declarations exactly as TypeScript's printer does (print-declarations.ts),
// without loading TypeScript: json-schema-to-typescript and the tool template write a small
// subset of TypeScript (imports, `declare const`, interfaces, type aliases, and types built of
// names, literals, unions, intersections, arrays, tuples, type literals and type arguments),
// and this parses that subset and prints it the printer's way: one member per line ending in
// `;`, tuples and type literals broken over lines, blank lines dropped, JSDoc re-indented.
// Anything outside the subset returns `undefined`, and the caller asks TypeScript itself.
//
// The layout is TypeScript's with its four-space indentation; print-declarations.ts halves it.

/** Thrown on anything this layout does not know; caught by `layOutDeclarations`. */
class OutsideSubset extends Error {}

interface Token {
  readonly kind: "name" | "string" | "number" | "punct" | "end";
  readonly text: string;
  /** Whether a line break precedes the token (after any comments). */
  readonly lineBreakBefore: boolean;
  /** JSDoc blocks between the previous token and this one, as printed. */
  readonly comments: readonly Comment[];
}

interface Comment {
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
const INDENT = "    ";

function tokenize(text: string): Token[] {
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

class Printer {
  readonly #tokens: Token[];
  #at = 0;
  #out = "";
  #indent = 0;
  #lineStart = true;
  /** The token whose comments were written as leading comments; any other token's are refused. */
  #commented = -1;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  print(): string {
    while (this.#peek().kind !== "end") {
      this.#statement();
      this.#newline();
    }
    if (this.#stray(this.#peek())) throw new OutsideSubset();
    return this.#out;
  }

  #statement(): void {
    this.#leadingComments();
    const first = this.#peek().text;
    if (first === "import") return this.#import();
    this.#expect("export");
    this.#write("export ");
    const keyword = this.#next().text;
    if (keyword === "interface") return this.#interface();
    if (keyword === "type") {
      this.#write(`type ${this.#name()} = `);
      this.#expect("=");
      this.#type();
      this.#optional(";");
      return this.#write(";");
    }
    if (keyword === "declare" && this.#next().text === "const") {
      this.#write(`declare const ${this.#name()}: `);
      this.#expect(":");
      this.#type();
      this.#optional(";");
      return this.#write(";");
    }
    throw new OutsideSubset();
  }

  // `import type { A, B } from "x";` and `import { A } from "x";`
  #import(): void {
    this.#next();
    this.#write("import ");
    if (this.#peek().text === "type") {
      this.#next();
      this.#write("type ");
    }
    this.#expect("{");
    const names: string[] = [];
    do names.push(this.#name());
    while (this.#optional(","));
    this.#expect("}");
    this.#expect("from");
    const from = this.#next();
    if (from.kind !== "string") throw new OutsideSubset();
    this.#optional(";");
    this.#write(`{ ${names.join(", ")} } from ${stringLiteral(from.text)};`);
  }

  #interface(): void {
    this.#write(`interface ${this.#name()} `);
    if (this.#optional("extends")) {
      const bases: string[] = [];
      do bases.push(this.#name());
      while (this.#optional(","));
      this.#write(`extends ${bases.join(", ")} `);
    }
    this.#members(false);
  }

  // An interface body (`{` + one member per line + `}`, even when empty) or a type literal
  // (the same, but `{}` when empty).
  #members(literal: boolean): void {
    this.#expect("{");
    this.#write("{");
    if (literal && this.#peek().text === "}" && !this.#stray(this.#peek())) {
      this.#next();
      return this.#write("}");
    }
    this.#indent++;
    this.#newline();
    while (this.#peek().text !== "}") {
      this.#leadingComments();
      this.#member();
      this.#newline();
      if (!this.#optional(";")) this.#optional(",");
    }
    if (this.#stray(this.#peek())) throw new OutsideSubset();
    this.#next();
    this.#indent--;
    this.#write("}");
  }

  // `name?: T;`, `"key": T;` or `[k: string]: T;`
  #member(): void {
    const key = this.#next();
    if (key.text === "[") {
      const parameter = this.#name();
      this.#expect(":");
      const type = this.#name();
      this.#expect("]");
      this.#write(`[${parameter}: ${type}]`);
    } else if (key.kind === "name" || key.kind === "string") {
      this.#write(key.kind === "string" ? stringLiteral(key.text) : key.text);
      if (this.#optional("?")) this.#write("?");
    } else {
      throw new OutsideSubset();
    }
    this.#expect(":");
    this.#write(": ");
    this.#type();
    this.#write(";");
  }

  #type(): void {
    this.#operands("|", () => this.#operands("&", () => this.#postfix()));
  }

  #operands(operator: "|" | "&", operand: () => void): void {
    if (this.#peek().text === operator) throw new OutsideSubset();
    operand();
    while (this.#optional(operator)) {
      this.#write(` ${operator} `);
      operand();
    }
  }

  // A primary type and any `[]` or `[index]` on the same line (TypeScript's rule).
  #postfix(): void {
    this.#primary();
    while (this.#peek().text === "[" && !this.#peek().lineBreakBefore) {
      this.#next();
      this.#write("[");
      if (!this.#optional("]")) {
        this.#type();
        this.#expect("]");
        this.#write("]");
      } else {
        this.#write("]");
      }
    }
  }

  #primary(): void {
    const token = this.#peek();
    if (this.#stray(token)) throw new OutsideSubset();
    if (token.text === "(") {
      this.#next();
      this.#write("(");
      this.#type();
      this.#expect(")");
      return this.#write(")");
    }
    if (token.text === "[") return this.#tuple();
    if (token.text === "{") return this.#members(true);
    if (token.text === "-") {
      this.#next();
      const number = this.#next();
      if (number.kind !== "number") throw new OutsideSubset();
      return this.#write(`-${number.text}`);
    }
    this.#next();
    if (token.kind === "string") return this.#write(stringLiteral(token.text));
    if (token.kind === "number") return this.#write(token.text);
    if (token.kind !== "name" || ["typeof", "keyof", "readonly", "infer", "unique", "new", "asserts", "is", "import"].includes(token.text)) throw new OutsideSubset();
    this.#write(token.text);
    if (!this.#peek().lineBreakBefore && this.#optional("<")) {
      this.#write("<");
      let first = true;
      do {
        if (!first) this.#write(", ");
        first = false;
        this.#type();
      } while (this.#optional(","));
      this.#expect(">");
      this.#write(">");
    }
  }

  // `[A, ...(B)[]]`, one element per line, and `]` on a line of its own even when empty.
  #tuple(): void {
    this.#next();
    this.#write("[");
    if (this.#optional("]")) {
      this.#newline();
      return this.#write("]");
    }
    this.#indent++;
    this.#newline();
    let first = true;
    do {
      if (this.#peek().text === "]") throw new OutsideSubset();
      if (!first) {
        this.#write(",");
        this.#newline();
      }
      first = false;
      if (this.#optional("...")) this.#write("...");
      this.#type();
    } while (this.#optional(","));
    this.#expect("]");
    this.#indent--;
    this.#newline();
    this.#write("]");
  }

  // What TypeScript's `emitLeadingComments` writes: each comment at the current indentation,
  // its later lines shifted by the indentation's change since the source, then a line break
  // (or a space, when the comment shares the line with what follows).
  #leadingComments(): void {
    this.#commented = this.#at;
    for (const { lines, column, newlineAfter } of this.#peek().comments) {
      lines.forEach((line, index) => {
        const last = index === lines.length - 1;
        if (index === 0) return this.#write(last ? line.text : `${line.text}\n`);
        if (line.text === "") throw new OutsideSubset();
        const spaces = this.#indent * INDENT.length - column + line.indent;
        this.#out += " ".repeat(Math.max(0, spaces)) + line.text + (last ? "" : "\n");
      });
      if (newlineAfter) this.#newline();
      else this.#write(" ");
    }
  }

  #write(text: string): void {
    if (this.#lineStart) this.#out += INDENT.repeat(this.#indent);
    this.#out += text;
    this.#lineStart = false;
  }

  #newline(): void {
    if (this.#lineStart) return;
    this.#out += "\n";
    this.#lineStart = true;
  }

  /** Whether comments precede `token` that were not written as a statement's or member's. */
  #stray(token: Token): boolean {
    return token.comments.length > 0 && this.#tokens[this.#commented] !== token;
  }

  #peek(): Token {
    return this.#tokens[this.#at] as Token;
  }

  #next(): Token {
    const token = this.#peek();
    if (token.kind === "end") throw new OutsideSubset();
    this.#at++;
    return token;
  }

  #name(): string {
    const token = this.#next();
    if (token.kind !== "name" || this.#stray(token)) throw new OutsideSubset();
    return token.text;
  }

  #expect(text: string): void {
    const token = this.#next();
    if (token.text !== text || this.#stray(token)) throw new OutsideSubset();
  }

  #optional(text: string): boolean {
    const token = this.#peek();
    if (token.text !== text || token.kind === "string" || this.#stray(token)) return false;
    this.#at++;
    return true;
  }
}

// The printer does not reuse a string literal's source text (the source file has no parent
// links, print-declarations.ts): it prints the string's value escaped its own way, non-ASCII
// characters as `\uXXXX` (TypeScript's `escapeNonAsciiString`).
const ESCAPED = /[\\"\u0000-\u001f\u2028\u2029\u0085]|[^\u0000-\u007f]/g;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\t": "\\t", "\v": "\\v", "\f": "\\f", "\b": "\\b", "\r": "\\r", "\n": "\\n", "\\": "\\\\", '"': '\\"' };

function stringLiteral(source: string): string {
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

/** The declarations as TypeScript's printer lays them out (four-space indent), or `undefined`. */
export function layOutDeclarations(text: string): string | undefined {
  try {
    return new Printer(tokenize(text)).print();
  } catch (error) {
    if (error instanceof OutsideSubset) return undefined;
    throw error;
  }
}
