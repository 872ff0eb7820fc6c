// The one path by which schema text reaches generated code. Values are JSON-encoded (with the
// line separators that JSON allows and JavaScript once did not escaped), identifiers are
// checked, and comment text cannot close its comment. Nothing else splices strings into code.

/** A fragment that is already code, and so is inserted verbatim. */
export class Code {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** A JavaScript literal for any JSON value: strings, numbers, arrays and objects alike. */
export function literal(value: unknown): Code {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError("literal(): value is not JSON-serialisable");
  return new Code(json.replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029"));
}

/**
 * A JavaScript literal for a JSON value printed as indented JSON, one entry per line: how the
 * generated modules print their data tables, readable and diff-friendly without a formatter.
 */
export function dataLiteral(value: unknown): Code {
  const json = JSON.stringify(value, null, 2);
  if (json === undefined) throw new TypeError("dataLiteral(): value is not JSON-serialisable");
  return new Code(json.replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029"));
}

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval undefined NaN Infinity"
  ).split(" "),
);

export function isSafeIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !RESERVED.has(name);
}

/** An identifier, refused unless it is plain ASCII and not a reserved word. */
export function ident(name: string): Code {
  if (!isSafeIdentifier(name)) throw new TypeError(`ident(): ${JSON.stringify(name)} is not a safe identifier`);
  return new Code(name);
}

/**
 * Text made safe for a `/* … *\/` or `//` comment: no comment terminator, no line breaks that
 * would end a line comment, no control characters.
 */
export function commentText(text: string): string {
  return text
    .replaceAll("*/", "*\\/")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, " ")
    .replaceAll("\r\n", "\n")
    .replaceAll("\r", "\n");
}

/** A JSDoc block (no trailing newline) for possibly multi-line text, indented by `indent`. */
export function jsdoc(text: string, indent = ""): Code {
  const lines = commentText(text.trim()).split("\n");
  if (lines.length === 1) return new Code(`${indent}/** ${lines[0]} */`);
  return new Code(`${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join("\n")}\n${indent} */`);
}

/**
 * Template tag for generated code: interpolations must be `Code` (from `literal`, `ident`,
 * `jsdoc` or another `code` template); anything else is JSON-encoded as a literal.
 */
export function code(strings: TemplateStringsArray, ...values: readonly unknown[]): Code {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += (value instanceof Code ? value.text : literal(value).text) + (strings[index + 1] ?? "");
  });
  return new Code(out);
}

/** Joins code fragments. */
export function join(parts: readonly Code[], separator = "\n"): Code {
  return new Code(parts.map((part) => part.text).join(separator));
}
