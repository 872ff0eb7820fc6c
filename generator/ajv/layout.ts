// ajv prints its validator one statement per line at column 0 (issue 30: half of each tool
// module, unreadable in a pull request). This lays it out for a reviewer: each line indented by
// its block depth, and a one-line comment on each block saying what it checks, in the words of
// the schema (the property, each item, each key) and of the error it raises (the keyword and the
// schema location). It runs last, on code stable-names.ts has renamed, and adds no statement.
//
// Assumption 12 (checked, AjvAssumptionError): braces outside strings, comments and regular
// expressions balance. Every shape below is matched on codeOnly's blanked copy, so schema text
// can only reach a comment as the JSON string literal ajv printed it in (one line, quotes and
// braces inside quotes), never decide what is matched.
import { AjvAssumptionError } from "./assumption.ts";
import { codeOnly } from "./code-text.ts";

/** What an error of each keyword means, in a reviewer's words; others are named by the keyword. */
const CHECKS: Readonly<Record<string, string>> = {
  type: "the wrong type",
  required: "a required property is missing",
  additionalProperties: "a property the schema does not list",
  enum: "not one of the allowed values",
  const: "not the one allowed value",
  format: "not in the format",
  pattern: "does not match the pattern",
  minimum: "below the lower bound",
  maximum: "above the upper bound",
  exclusiveMinimum: "at or below the lower bound",
  exclusiveMaximum: "at or above the upper bound",
  multipleOf: "not a multiple of the step",
  minLength: "too short",
  maxLength: "too long",
  minItems: "too few items",
  maxItems: "too many items",
  uniqueItems: "a repeated item",
  minProperties: "too few properties",
  maxProperties: "too many properties",
  anyOf: "no branch matches",
  oneOf: "not exactly one branch matches",
  contains: "no item matches",
  propertyNames: "a key of the wrong form",
  dependentRequired: "a property another one needs is missing",
  not: "matches the excluded schema",
  if: "fails the conditional branch",
};

const INDENT = "  ";
const CLOSE = "}".charCodeAt(0);
// Every line commentFor comments starts `function`, `for`, `if` or `const`: most lines are none of them.
const F = "f".charCodeAt(0);
const I = "i".charCodeAt(0);
const C = "c".charCodeAt(0);
const INDENTS: string[] = [];

/** The indent of `depth` blocks (none below 0), each depth's made once. */
function indentOf(depth: number): string {
  if (depth <= 0) return "";
  let indent = INDENTS[depth];
  if (indent === undefined) INDENTS[depth] = indent = INDENT.repeat(depth);
  return indent;
}

/**
 * `code` indented by block depth, each block with a comment on what it checks. `blanked` is
 * codeOnly(code), when the caller has it already (stable-names.ts returns it).
 */
export function layOut(code: string, blanked: string = codeOnly(code)): string {
  return layOutWithBlanked(code, blanked).code;
}

/**
 * layOut, with the laid-out code's blanked copy (codeOnly of it) for the pass after
 * (shared-functions.ts): each line's indent is whitespace in both, and each comment line is
 * blanked whole, as codeOnly blanks a `//` comment.
 */
export function layOutWithBlanked(code: string, blanked: string = codeOnly(code)): { readonly code: string; readonly blanked: string } {
  const lines = code.split("\n");
  const out: string[] = [];
  const outBlanked: string[] = [];
  let depth = 0;
  // The blanked copy is read in place, line by line (the same lines as `code`'s): its braces are
  // counted by char code on the one flat string, and a line is cut out only to be matched.
  let start = 0;
  // The next brace of each kind at or after the line being read: a line's braces are counted by
  // jumping from one to the next (a native search) rather than by testing its every character.
  let open = blanked.indexOf("{");
  let close = blanked.indexOf("}");
  for (const line of lines) {
    const end = start + line.length;
    const first = blanked.charCodeAt(start);
    const indent = indentOf(depth - (first === CLOSE ? 1 : 0));
    const comment = first === F || first === I || first === C ? commentFor(line, blanked.slice(start, end)) : undefined;
    if (comment !== undefined) {
      if (depth === 0 && out.length > 0 && out.at(-1) !== "") {
        out.push("");
        outBlanked.push("");
      }
      const commented = `${indent}// ${comment}`;
      out.push(commented);
      outBlanked.push(" ".repeat(commented.length));
    }
    if (line === "") {
      out.push("");
      outBlanked.push("");
    } else {
      out.push(indent + line);
      outBlanked.push(indent + blanked.slice(start, end));
    }
    // Only the depth at the line's end is read, so the two kinds are counted one after the other.
    for (; open !== -1 && open < end; open = blanked.indexOf("{", open + 1)) depth++;
    for (; close !== -1 && close < end; close = blanked.indexOf("}", close + 1)) depth--;
    if (depth < 0)
      throw new AjvAssumptionError(
        "the printed code's braces balance",
        `a line closes more blocks than are open: ${blanked.slice(start, Math.min(end, start + 80))}`,
      );
    start = end + 1;
  }
  if (depth !== 0) throw new AjvAssumptionError("the printed code's braces balance", `${depth} block(s) left open`);
  return { code: out.join("\n"), blanked: outBlanked.join("\n") };
}

/** The comment a line gets above it, or undefined. `blanked` is the line as codeOnly sees it. */
function commentFor(line: string, blanked: string): string | undefined {
  // Each shape below starts with its own first letter: only the shapes of this line's are tried.
  const first = blanked.charCodeAt(0);
  const declared = first === F ? /^function ([\w$]+)\(/.exec(blanked) : null;
  if (declared) {
    const name = declared[1] as string;
    return name === "validate_arguments"
      ? "The check of the arguments: true when they are valid; else false, with the errors in validate_arguments.errors."
      : `The check of a referenced definition (${name}), called wherever the schema refers to it.`;
  }
  // `if(data.name !== undefined && func_hasOwnProperty.call(data, "name")){`
  const present = first === I ? /^if\(([\w$]+)(?:\._+|\[" *"\]) !== undefined && [\w$]+\._+\(\1, (" *")\)\)\{$/.exec(blanked) : null;
  if (present) return `The property ${stringAt(line, blanked, present[2] as string)}, when it is there.`;
  if (first === F && /^for\(const [\w$]+ of Object\._+\([\w$]+\)\)\{$/.test(blanked)) return "Each key of the object.";
  if (first === F && /^for\(let ([\w$]+)=0; \1<[\w$]+; \1\+\+\)\{$/.test(blanked)) return "Each item of the array.";
  // `const err0 = {instancePath,schemaPath:"#/properties/amount/minimum",keyword:"minimum",...};`
  if (first === C && /^const [\w$]+ = \{instancePath/.test(blanked)) {
    const keyword = field(line, blanked, "keyword");
    const path = field(line, blanked, "schemaPath");
    if (keyword === undefined || path === undefined) return undefined;
    const words = CHECKS[JSON.parse(keyword) as string] ?? `fails ${keyword}`;
    return `Error, ${words}: ${path}.`;
  }
  return undefined;
}

const FIELDS = { keyword: /[{,]keyword:(" *")/, schemaPath: /[{,]schemaPath:(" *")/ } as const;

/** The string literal `field:"..."` of an error object, as ajv printed it (quotes included). */
function field(line: string, blanked: string, name: "keyword" | "schemaPath"): string | undefined {
  const match = FIELDS[name].exec(blanked);
  if (!match) return undefined;
  const at = match.index + name.length + 2;
  return line.slice(at, at + (match[1] as string).length);
}

/** The string literal of `line` at the blanked literal `blankedLiteral`'s position. */
function stringAt(line: string, blanked: string, blankedLiteral: string): string {
  const at = blanked.lastIndexOf(blankedLiteral);
  return line.slice(at, at + blankedLiteral.length);
}
