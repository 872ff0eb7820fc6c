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
  /** The top-level names it reads (itself excluded). */
  readonly uses: ReadonlySet<string>;
}

const DECLARATION = /^(const|function) ([A-Za-z_$][\w$]*)[ (]/;
/** A property set on a top-level name, as codeOnly blanks it (the property's name is blanked too). */
const EVALUATED = /^([A-Za-z_$][\w$]*)\.[\w$]+ = /;
/** A top-level name where it is read. */
export const IDENTIFIER = /(?<![\w$.])[A-Za-z_$][\w$]*/g;

/** Every top-level declaration, in order (assumption 13). */
export function topLevelStatements(code: string): Statement[] {
  const lines = code.split("\n");
  const blankedLines = codeOnly(code).split("\n");
  const found: { name: string; kind: "const" | "function"; lines: string[]; blanked: string[] }[] = [];
  let comments: string[] = [];
  let current: (typeof found)[number] | undefined;
  let reopened = false;
  let depth = 0;
  for (const [index, line] of lines.entries()) {
    const blanked = blankedLines[index] as string;
    if (current === undefined) {
      if (blanked.trim() === "") {
        if (line.trim().startsWith("//")) comments.push(line);
        continue;
      }
      const declared = DECLARATION.exec(blanked);
      const assigned = declared ? undefined : EVALUATED.exec(blanked);
      // `validate_x.evaluated = {...};` (ajv prints it after a function whose evaluated
      // properties or items its callers read, under unevaluated*): part of that function.
      const owner =
        assigned && line.startsWith(`${assigned[1]}.evaluated = `)
          ? found.find((statement) => statement.kind === "function" && statement.name === assigned[1])
          : undefined;
      if (owner) {
        owner.lines.push(...comments, line);
        owner.blanked.push(blanked);
        current = owner;
        reopened = true;
      } else if (declared) current = { kind: declared[1] as "const" | "function", name: declared[2] as string, lines: [...comments, line], blanked: [blanked] };
      else
        throw new AjvAssumptionError(
          "the validator's top level holds only const and function declarations, and a function's `.evaluated` after it",
          `found: ${blanked.slice(0, 80)}`,
        );
      comments = [];
    } else {
      current.lines.push(line);
      current.blanked.push(blanked);
    }
    for (const char of blanked) {
      if (char === "{") depth++;
      else if (char === "}") depth--;
    }
    if (depth === 0 && /;\s*$|^\}\s*$/.test(blanked)) {
      if (!reopened) found.push(current);
      current = undefined;
      reopened = false;
    }
  }
  if (current !== undefined || comments.length > 0)
    throw new AjvAssumptionError("the validator's top level holds only const and function declarations", "it ends inside a declaration");
  const names = new Set(found.map((statement) => statement.name));
  if (names.size !== found.length) throw new AjvAssumptionError("each top-level name of the validator is declared once", "a name is declared twice");
  return found.map(({ name, kind, lines: text, blanked }) => {
    const uses = new Set<string>();
    // The declared name itself (at its declaration, or a function calling itself) is no dependency.
    for (const [used] of blanked.join("\n").matchAll(IDENTIFIER)) if (used !== name && names.has(used)) uses.add(used);
    return { name, kind, text: text.join("\n"), uses };
  });
}
