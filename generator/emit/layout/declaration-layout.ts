// Lays out a tool's declarations exactly as TypeScript's printer does (print-declarations.ts),
// without loading TypeScript: json-schema-to-typescript and the tool template write a small
// subset of TypeScript (imports, `declare const`, interfaces, type aliases, and types built of
// names, literals, unions, intersections, arrays, tuples, type literals and type arguments),
// and this parses that subset and prints it the printer's way: one member per line ending in
// `;`, tuples and type literals broken over lines, blank lines dropped, JSDoc re-indented.
// Anything outside the subset returns `undefined`, and the caller asks TypeScript itself.
//
// The layout is TypeScript's with its four-space indentation; print-declarations.ts halves it.

import { INDENT, OutsideSubset, stringLiteral, type Token, TokenCursor, tokenize } from "./declaration-tokens.ts";

class Printer {
  readonly #cursor: TokenCursor;
  #out = "";
  #indent = 0;
  #lineStart = true;

  constructor(tokens: Token[]) {
    this.#cursor = new TokenCursor(tokens);
  }

  print(): string {
    while (this.#cursor.peek().kind !== "end") {
      this.#statement();
      this.#newline();
    }
    if (this.#cursor.stray(this.#cursor.peek())) throw new OutsideSubset();
    return this.#out;
  }

  #statement(): void {
    this.#leadingComments();
    const first = this.#cursor.peek().text;
    if (first === "import") {
      this.#import();
      return;
    }
    this.#cursor.expect("export");
    this.#write("export ");
    const keyword = this.#cursor.next().text;
    if (keyword === "interface") {
      this.#interface();
      return;
    }
    if (keyword === "type") {
      this.#write(`type ${this.#cursor.name()} = `);
      this.#cursor.expect("=");
      this.#type();
      this.#cursor.optional(";");
      this.#write(";");
      return;
    }
    if (keyword === "declare" && this.#cursor.next().text === "const") {
      this.#write(`declare const ${this.#cursor.name()}: `);
      this.#cursor.expect(":");
      this.#type();
      this.#cursor.optional(";");
      this.#write(";");
      return;
    }
    throw new OutsideSubset();
  }

  // `import type { A, B } from "x";` and `import { A } from "x";`
  #import(): void {
    this.#cursor.next();
    this.#write("import ");
    if (this.#cursor.peek().text === "type") {
      this.#cursor.next();
      this.#write("type ");
    }
    this.#cursor.expect("{");
    const names: string[] = [];
    do names.push(this.#cursor.name());
    while (this.#cursor.optional(","));
    this.#cursor.expect("}");
    this.#cursor.expect("from");
    const from = this.#cursor.next();
    if (from.kind !== "string") throw new OutsideSubset();
    this.#cursor.optional(";");
    this.#write(`{ ${names.join(", ")} } from ${stringLiteral(from.text)};`);
  }

  #interface(): void {
    this.#write(`interface ${this.#cursor.name()} `);
    if (this.#cursor.optional("extends")) {
      const bases: string[] = [];
      do bases.push(this.#cursor.name());
      while (this.#cursor.optional(","));
      this.#write(`extends ${bases.join(", ")} `);
    }
    this.#members(false);
  }

  // An interface body (`{` + one member per line + `}`, even when empty) or a type literal
  // (the same, but `{}` when empty).
  #members(literal: boolean): void {
    this.#cursor.expect("{");
    this.#write("{");
    if (literal && this.#cursor.peek().text === "}" && !this.#cursor.stray(this.#cursor.peek())) {
      this.#cursor.next();
      this.#write("}");
      return;
    }
    this.#indent++;
    this.#newline();
    while (this.#cursor.peek().text !== "}") {
      this.#leadingComments();
      this.#member();
      this.#newline();
      if (!this.#cursor.optional(";")) this.#cursor.optional(",");
    }
    if (this.#cursor.stray(this.#cursor.peek())) throw new OutsideSubset();
    this.#cursor.next();
    this.#indent--;
    this.#write("}");
  }

  // `name?: T;`, `"key": T;` or `[k: string]: T;`
  #member(): void {
    const key = this.#cursor.next();
    if (key.text === "[") {
      const parameter = this.#cursor.name();
      this.#cursor.expect(":");
      const type = this.#cursor.name();
      this.#cursor.expect("]");
      this.#write(`[${parameter}: ${type}]`);
    } else if (key.kind === "name" || key.kind === "string") {
      this.#write(key.kind === "string" ? stringLiteral(key.text) : key.text);
      if (this.#cursor.optional("?")) this.#write("?");
    } else {
      throw new OutsideSubset();
    }
    this.#cursor.expect(":");
    this.#write(": ");
    this.#type();
    this.#write(";");
  }

  #type(): void {
    this.#operands("|", () => this.#operands("&", () => this.#postfix()));
  }

  #operands(operator: "|" | "&", operand: () => void): void {
    if (this.#cursor.peek().text === operator) throw new OutsideSubset();
    operand();
    while (this.#cursor.optional(operator)) {
      this.#write(` ${operator} `);
      operand();
    }
  }

  // A primary type and any `[]` or `[index]` on the same line (TypeScript's rule).
  #postfix(): void {
    this.#primary();
    while (this.#cursor.peek().text === "[" && !this.#cursor.peek().lineBreakBefore) {
      this.#cursor.next();
      this.#write("[");
      if (!this.#cursor.optional("]")) {
        this.#type();
        this.#cursor.expect("]");
        this.#write("]");
      } else {
        this.#write("]");
      }
    }
  }

  #primary(): void {
    const token = this.#cursor.peek();
    if (this.#cursor.stray(token)) throw new OutsideSubset();
    if (token.text === "(") {
      this.#cursor.next();
      this.#write("(");
      this.#type();
      this.#cursor.expect(")");
      this.#write(")");
      return;
    }
    if (token.text === "[") {
      this.#tuple();
      return;
    }
    if (token.text === "{") {
      this.#members(true);
      return;
    }
    if (token.text === "-") {
      this.#cursor.next();
      const number = this.#cursor.next();
      if (number.kind !== "number") throw new OutsideSubset();
      this.#write(`-${number.text}`);
      return;
    }
    this.#cursor.next();
    if (token.kind === "string") {
      this.#write(stringLiteral(token.text));
      return;
    }
    if (token.kind === "number") {
      this.#write(token.text);
      return;
    }
    if (token.kind !== "name" || ["typeof", "keyof", "readonly", "infer", "unique", "new", "asserts", "is", "import"].includes(token.text))
      throw new OutsideSubset();
    this.#write(token.text);
    if (!this.#cursor.peek().lineBreakBefore && this.#cursor.optional("<")) {
      this.#write("<");
      let first = true;
      do {
        if (!first) this.#write(", ");
        first = false;
        this.#type();
      } while (this.#cursor.optional(","));
      this.#cursor.expect(">");
      this.#write(">");
    }
  }

  // `[A, ...(B)[]]`, one element per line, and `]` on a line of its own even when empty.
  #tuple(): void {
    this.#cursor.next();
    this.#write("[");
    if (this.#cursor.optional("]")) {
      this.#newline();
      this.#write("]");
      return;
    }
    this.#indent++;
    this.#newline();
    let first = true;
    do {
      if (this.#cursor.peek().text === "]") throw new OutsideSubset();
      if (!first) {
        this.#write(",");
        this.#newline();
      }
      first = false;
      if (this.#cursor.optional("...")) this.#write("...");
      this.#type();
    } while (this.#cursor.optional(","));
    this.#cursor.expect("]");
    this.#indent--;
    this.#newline();
    this.#write("]");
  }

  // What TypeScript's `emitLeadingComments` writes: each comment at the current indentation,
  // its later lines shifted by the indentation's change since the source, then a line break
  // (or a space, when the comment shares the line with what follows).
  #leadingComments(): void {
    for (const { lines, column, newlineAfter } of this.#cursor.claimComments()) {
      for (const [index, line] of lines.entries()) {
        const last = index === lines.length - 1;
        if (index === 0) {
          this.#write(last ? line.text : `${line.text}\n`);
          continue;
        }
        if (line.text === "") throw new OutsideSubset();
        const spaces = this.#indent * INDENT.length - column + line.indent;
        this.#out += " ".repeat(Math.max(0, spaces)) + line.text + (last ? "" : "\n");
      }
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
