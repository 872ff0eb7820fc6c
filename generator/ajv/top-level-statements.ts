// Assumption 13's reading of a laid-out validator's top level: each `const` and `function`
// declaration with the comment lines above it and the top-level names it reads, and a
// function's `.evaluated` (ajv prints it after the function under unevaluated*) kept with it.
// Every test reads codeOnly's blanked copy, so schema text never decides where a statement ends.
import { AjvAssumptionError } from "./assumption.ts";
import { codeOnly } from "./code-text.ts";

/** One top-level declaration of the validator, with the comment lines above it. */
export interface Statement {
  readonly name: string;
  readonly kind: "const" | "function";
  readonly text: string;
  /** `text` as codeOnly sees it (the same lines of the blanked copy), for the searches after. */
  readonly blanked: string;
  /** The top-level names it reads (itself excluded). */
  readonly uses: ReadonlySet<string>;
}

const DECLARATION = /^(const|function) ([A-Za-z_$][\w$]*)[ (]/;
/** A property set on a top-level name, as codeOnly blanks it (the property's name is blanked too). */
const EVALUATED = /^([A-Za-z_$][\w$]*)\.[\w$]+ = /;
/** A top-level name where it is read. */
export const IDENTIFIER = /(?<![\w$.])[A-Za-z_$][\w$]*/g;

/** Where one top-level declaration is: its name, its kind, and the [from, to) line ranges it holds. */
export interface Declaration {
  readonly name: string;
  readonly kind: "const" | "function";
  readonly ranges: readonly number[];
}

/** Every top-level declaration, in order (assumption 13). `blankedCode` is codeOnly(code), when the caller has it. */
export function topLevelStatements(
  code: string,
  blankedCode: string = codeOnly(code),
  declarations: readonly Declaration[] = topLevelDeclarations(code, blankedCode),
): Statement[] {
  // Most names a statement reads are no top-level name (`data`, `errors`, `vErrors`): one whose
  // length and first character no top-level name has is passed over without being cut out.
  const names = new Set(declarations.map((declaration) => declaration.name));
  const shapes = new Set<number>();
  for (const name of names) shapes.add(shapeOf(name.length, name.charCodeAt(0)));
  return declarations.map(({ name, kind, ranges }) => {
    const uses = new Set<string>();
    const text: string[] = [];
    const blanked: string[] = [];
    for (let at = 0; at < ranges.length; at += 2) {
      const from = ranges[at] as number;
      const to = ranges[at + 1] as number;
      text.push(code.slice(from, to));
      blanked.push(blankedCode.slice(from, to));
      // The declared name itself (at its declaration, or a function calling itself) is no dependency.
      identifiersIn(blankedCode, from, to, shapes, (used) => {
        if (used !== name && names.has(used)) uses.add(used);
      });
    }
    return { name, kind, text: text.join("\n"), blanked: blanked.join("\n"), uses };
  });
}

/**
 * Where each top-level declaration is, in order, with assumption 13 checked: topLevelStatements
 * without the statements' texts and the names they read (a caller that needs only the names and
 * kinds, or tells from them that it needs no more, reads no further).
 */
export function topLevelDeclarations(code: string, blankedCode: string = codeOnly(code)): Declaration[] {
  // Read in place, line by line, on the two flat strings (the same offsets): a statement is the
  // ranges of lines it holds, and a line is cut out only where a test needs its text (a
  // statement's first line, a line at depth 0). Splitting into lines and testing each one was
  // most of this pass on GitHub's validators.
  const found: { name: string; kind: "const" | "function"; ranges: number[] }[] = [];
  let comments: number[] = [];
  let current: (typeof found)[number] | undefined;
  let reopened = false;
  let depth = 0;
  const length = code.length;
  // The next brace of each kind at or after the line being read: a line's braces are counted by
  // jumping from one to the next (a native search) rather than by testing its every character.
  let open = blankedCode.indexOf("{");
  let close = blankedCode.indexOf("}");
  for (let start = 0; start <= length; ) {
    let end = code.indexOf("\n", start);
    if (end === -1) end = length;
    const next = end + 1;
    if (current === undefined) {
      const blanked = blankedCode.slice(start, end);
      if (blanked.trim() === "") {
        if (code.slice(start, end).trim().startsWith("//")) comments.push(start, end);
        start = next;
        continue;
      }
      const declared = DECLARATION.exec(blanked);
      const assigned = declared ? undefined : EVALUATED.exec(blanked);
      // `validate_x.evaluated = {...};` (ajv prints it after a function whose evaluated
      // properties or items its callers read, under unevaluated*): part of that function.
      const owner =
        assigned && code.startsWith(`${assigned[1]}.evaluated = `, start)
          ? found.find((statement) => statement.kind === "function" && statement.name === assigned[1])
          : undefined;
      if (owner) {
        owner.ranges.push(...comments, start, end);
        current = owner;
        reopened = true;
      } else if (declared) current = { kind: declared[1] as "const" | "function", name: declared[2] as string, ranges: [...comments, start, end] };
      else
        throw new AjvAssumptionError(
          "the validator's top level holds only const and function declarations, and a function's `.evaluated` after it",
          `found: ${blanked.slice(0, 80)}`,
        );
      comments = [];
    } else extend(current.ranges, start, end);
    // Only the depth at the line's end is read, so the two kinds are counted one after the other.
    for (; open !== -1 && open < end; open = blankedCode.indexOf("{", open + 1)) depth++;
    for (; close !== -1 && close < end; close = blankedCode.indexOf("}", close + 1)) depth--;
    if (depth === 0 && /;\s*$|^\}\s*$/.test(blankedCode.slice(start, end))) {
      if (!reopened) found.push(current);
      current = undefined;
      reopened = false;
    }
    start = next;
  }
  if (current !== undefined || comments.length > 0)
    throw new AjvAssumptionError("the validator's top level holds only const and function declarations", "it ends inside a declaration");
  const names = new Set(found.map((statement) => statement.name));
  if (names.size !== found.length) throw new AjvAssumptionError("each top-level name of the validator is declared once", "a name is declared twice");
  return found;
}

/** Adds the line [start, end) to a statement's ranges, joined to the last range when it follows on the next line. */
function extend(ranges: number[], start: number, end: number): void {
  if (ranges.length > 0 && ranges[ranges.length - 1] === start - 1) ranges[ranges.length - 1] = end;
  else ranges.push(start, end);
}

/** A name's length and first character, as one number. */
function shapeOf(length: number, first: number): number {
  return length * 0x10000 + first;
}

/**
 * Each match of IDENTIFIER inside [from, to) of `blanked` whose shape (shapeOf) is in `shapes`,
 * in order, read by hand (as name-tokens.ts reads its tokens): a run of `[\w$]` that starts with
 * a letter, `_` or `$` and does not follow a `.`. Every range starts a line, so the character
 * before it is a newline.
 */
function identifiersIn(blanked: string, from: number, to: number, shapes: ReadonlySet<number>, found: (name: string) => void): void {
  let index = from;
  while (index < to) {
    const char = blanked.charCodeAt(index);
    if (!isWordChar(char)) {
      index++;
      continue;
    }
    const start = index;
    while (index < to && isWordChar(blanked.charCodeAt(index))) index++;
    if (!(char >= 0x30 && char <= 0x39) && (start === from || blanked.charCodeAt(start - 1) !== 0x2e) && shapes.has(shapeOf(index - start, char)))
      found(blanked.slice(start, index));
  }
}

/** `[\w$]`: ASCII letters, digits, `_` and `$` (`\w` without the `u` flag). */
function isWordChar(char: number): boolean {
  return (char >= 0x61 && char <= 0x7a) || (char >= 0x41 && char <= 0x5a) || (char >= 0x30 && char <= 0x39) || char === 0x5f || char === 0x24;
}
