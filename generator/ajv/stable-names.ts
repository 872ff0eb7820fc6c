// ajv numbers every name it prints from counters that run through the whole compilation
// (`validate20`, `schema31`, `func71`, `err20`, `data9`), so a property added first in
// `properties` renumbered every check after it: 178 of the invoice tool's 230 changed lines
// differed only by a number (issue 30). This pass gives every name a number or a word that
// depends only on where it is, so a regenerated module differs where the schema did:
//
// - a name declared inside a function (`errN`, `dataN`, `_errsN`, `validN`, `keyN`, `iN`...) gets
//   the lowest number its prefix has free among the names of that prefix in scope at its
//   declaration: the number counts enclosing, still-open declarations, not earlier siblings, so a
//   new sibling block renumbers nothing else (a register allocation over block scopes);
// - a top-level name gets a word from what it holds: `validate_arguments` and `validate_<definition>`
//   for functions (the schema location, as the hazard walk names `walk_<definition>`),
//   `schema_<location>` for schema constants, `func_<helper>`, `format_<name>`, and
//   `pattern_<hash of the pattern>`.
//
// Assumption 11 (checked, AjvAssumptionError): inside a function every numbered name is declared
// with `const`, `let` or `var` before its first use; a `const`/`let` name is used only until the
// block holding its declaration closes; no function nests another. A uniform rename that gives
// two names one new name only when their block scopes are disjoint changes no binding (`var`
// names, function-scoped, are never shared: they keep ajv's order, per function). Every search
// reads codeOnly's blanked copy, so schema text never decides what is renamed.
import { createHash } from "node:crypto";
import { AjvAssumptionError } from "./assumption.ts";
import { codeOnly } from "./code-text.ts";
import { type Tokens, tokenize } from "./name-tokens.ts";

/** What the printed code's numbered top-level names stand for, read from ajv's state before printing. */
export interface NameSources {
  /** The function that validates the arguments (ajv's `validateN`). */
  readonly entry: string;
  /** Functions compiled for `$ref` targets: ajv's name -> `#/...` location (private-state.ts). */
  readonly functions: ReadonlyMap<string, string>;
  /** Schema constants: ajv's name -> the `#/...` location of the schema it holds (schemaLocations). */
  readonly schemas: ReadonlyMap<string, string>;
}

const NUMBERED = /^([A-Za-z_$][A-Za-z_$]*?)(\d+)$/;

/**
 * `code` with ajv's numbered names replaced by names that depend on the schema location only,
 * and the result's blanked copy (codeOnly of it) for the passes after this one: every renamed
 * token is a name in ajv's own code, outside what codeOnly blanks, so renaming the blanked copy
 * the same way gives the renamed code's blanked copy without blanking it again.
 */
export function stableNames(code: string, sources: NameSources, blanked: string = codeOnly(code)): { code: string; blanked: string; entry: string } {
  if (blanked.includes("`")) throw new AjvAssumptionError("printed code has no template literals", "found a backtick outside a string");
  const tokens = tokenize(blanked);
  const top = topLevelNames(code, blanked, tokens, sources);
  const renames: (string | undefined)[] = new Array(tokens.text.length);
  for (let index = 0; index < tokens.text.length; index++) {
    const text = tokens.text[index] as string;
    const name = endsInDigit(text) ? top.get(text) : undefined;
    if (name !== undefined) renames[index] = name;
  }
  for (const body of functionBodies(tokens.text)) renameLocals(tokens, body, renames, top);
  const parts: string[] = [];
  const blankedParts: string[] = [];
  let last = 0;
  for (let index = 0; index < renames.length; index++) {
    const name = renames[index];
    // A name that comes out as it was (most of a function's first locals) is left in place.
    if (name === undefined || name === tokens.text[index]) continue;
    const at = tokens.at[index] as number;
    parts.push(code.slice(last, at), name);
    blankedParts.push(blanked.slice(last, at), name);
    last = at + (tokens.text[index] as string).length;
  }
  parts.push(code.slice(last));
  blankedParts.push(blanked.slice(last));
  return { code: parts.join(""), blanked: blankedParts.join(""), entry: top.get(sources.entry) ?? sources.entry };
}

/** The token ranges (open brace to close brace) of each top-level function's body. */
function functionBodies(tokens: readonly string[]): { open: number; close: number }[] {
  const bodies: { open: number; close: number }[] = [];
  let depth = 0;
  let parens = 0;
  let inFunction = false;
  let open = -1;
  for (let index = 0; index < tokens.length; index++) {
    const text = tokens[index] as string;
    if (text === "(") parens++;
    else if (text === ")") parens--;
    else if (text === "function") {
      if (depth > 0) throw new AjvAssumptionError("no function of the printed code nests another", "found `function` inside a function");
      inFunction = true;
    } else if (text === "{") {
      if (depth === 0 && inFunction && parens === 0) open = index;
      depth++;
    } else if (text === "}") {
      depth--;
      if (depth === 0 && open >= 0) {
        bodies.push({ open, close: index });
        open = -1;
        inFunction = false;
      }
    }
  }
  return bodies;
}

/** A numbered local name's current new name and the brace depth whose closing ends its scope. */
interface Live {
  readonly name: string;
  readonly prefix: string;
  readonly depth: number;
}

function renameLocals(tokens: Tokens, body: { open: number; close: number }, renames: (string | undefined)[], top: ReadonlyMap<string, string>): void {
  const texts = tokens.text;
  // `var` is function-scoped, and ajv reads a `var` after the block that declares it (`contains`
  // tests `valid2` after its loop, which may not have run): such a name is never shared, and is
  // numbered per function in order of appearance instead.
  const vars = new Map<string, string>();
  const varCount = new Map<string, number>();
  for (let index = body.open; index <= body.close; index++) {
    if (texts[index] !== "var") continue;
    const declared = texts[index + 1] ?? "";
    const numbered = NUMBERED.exec(declared);
    if (!numbered || vars.has(declared)) continue;
    const prefix = numbered[1] as string;
    const n = varCount.get(prefix) ?? 0;
    varCount.set(prefix, n + 1);
    vars.set(declared, `${prefix}${n}`);
  }
  const varNames = new Set(vars.values());
  const live = new Map<string, Live>();
  const ended = new Set<string>();
  const declaredVars = new Set<string>();
  const others = new Set<string>();
  const local = new Set<string>();
  let depth = 0;
  let parens = 0;
  let forHead = -1;
  for (let index = body.open; index <= body.close; index++) {
    const text = texts[index] as string;
    if (text === "(") {
      parens++;
      if (texts[index - 1] === "for") forHead = parens;
    } else if (text === ")") {
      if (parens === forHead) forHead = -1;
      parens--;
    } else if (text === "{") depth++;
    else if (text === "}") {
      for (const [old, entry] of live) {
        if (entry.depth !== depth) continue;
        live.delete(old);
        ended.add(old);
      }
      depth--;
    } else if (text === "const" || text === "let" || text === "var") {
      const declared = texts[index + 1] ?? "";
      const numbered = NUMBERED.exec(declared);
      if (!numbered) continue;
      if (others.has(declared)) throw new AjvAssumptionError("a local name is declared before its first use", `${declared} used before its declaration`);
      if (text === "var") {
        declaredVars.add(declared);
        continue;
      }
      if (vars.has(declared)) throw new AjvAssumptionError("a name is declared with `var` or with `const`/`let`, not both", declared);
      if (live.has(declared)) continue;
      // A for-head's declaration lives in the loop's body, one level in.
      const scope = forHead > 0 ? depth + 1 : depth;
      live.set(declared, { name: freeName(numbered[1] as string, live, varNames), prefix: numbered[1] as string, depth: scope });
      ended.delete(declared);
    } else if (endsInDigit(text) && NUMBERED.test(text)) {
      const entry = live.get(text);
      const asVar = vars.get(text);
      if (entry) {
        renames[index] = entry.name;
        local.add(entry.name);
      } else if (asVar !== undefined && declaredVars.has(text)) {
        renames[index] = asVar;
        local.add(asVar);
      } else if (ended.has(text))
        throw new AjvAssumptionError("a local name is used only inside the block that declares it", `${text} used after its block closed`);
      else if (!top.has(text)) others.add(text);
    }
  }
  for (const name of local) {
    if (others.has(name) || top.has(name)) throw new AjvAssumptionError("a renamed local name is new to its function", `${name} is also used unrenamed`);
  }
}

/** A cheap first test before NUMBERED, which most tokens (`data`, `if`, `errors`) fail. */
function endsInDigit(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 48 && last <= 57;
}

/** `prefix` with the lowest number no live name of that prefix, and no `var` of the function, holds. */
function freeName(prefix: string, live: ReadonlyMap<string, Live>, vars: ReadonlySet<string>): string {
  const taken = new Set<string>(vars);
  for (const entry of live.values()) if (entry.prefix === prefix) taken.add(entry.name);
  for (let n = 0; ; n++) if (!taken.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

/** Each numbered top-level name (a declaration outside every function) -> its word. */
function topLevelNames(code: string, blanked: string, tokens: Tokens, sources: NameSources): Map<string, string> {
  const wanted = new Map<string, string>();
  let depth = 0;
  for (let index = 0; index < tokens.text.length; index++) {
    const text = tokens.text[index] as string;
    if (text === "{") depth++;
    else if (text === "}") depth--;
    if (depth !== 0 || (text !== "function" && text !== "const")) continue;
    const at = tokens.at[index] as number;
    const declared = tokens.text[index + 1] ?? "";
    if (!NUMBERED.test(declared)) continue;
    if (text === "function") wanted.set(declared, functionName(declared, sources));
    else if (text === "const") {
      const start = blanked.indexOf("=", at) + 1;
      const end = blanked.indexOf(";\n", start);
      const value = code.slice(start, end < 0 ? undefined : end).trim();
      wanted.set(declared, constantName(declared, value, sources));
    }
  }
  // Two names that came out equal are told apart by what they hold, never by order.
  const counts = new Map<string, number>();
  for (const name of wanted.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const [old, name] of wanted) out.set(old, (counts.get(name) ?? 0) > 1 ? `${name}_${hash(old)}` : name);
  return out;
}

function functionName(old: string, sources: NameSources): string {
  if (old === sources.entry) return "validate_arguments";
  const location = sources.functions.get(old);
  return location === undefined ? `validate_${hash(old)}` : `validate_${place(location)}`;
}

function constantName(old: string, value: string, sources: NameSources): string {
  const prefix = NUMBERED.exec(old)?.[1] as string;
  if (prefix === "schema") {
    const location = sources.schemas.get(old);
    return location === undefined ? `schema_${hash(value)}` : `schema_${location === "#" ? "arguments" : place(location)}`;
  }
  // `formats.date`, `formats["date-time"]`: the format's name.
  const format = /^formats(?:\.([\w$]+)|\[("(?:[^"\\]|\\.)*")\])$/.exec(value);
  if (prefix === "formats" && format) return `format_${word(format[1] ?? (JSON.parse(format[2] as string) as string))}`;
  // `Object.prototype.hasOwnProperty`, `ucs2length`: the helper's own name.
  const helper = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)$/.exec(value);
  if (prefix === "func" && helper) return `func_${helper[1]}`;
  // A compiled pattern, or anything else: what it holds, hashed.
  return `${prefix}_${hash(value.replace(/^[\w$]+\(/, "("))}`;
}

/** Where a definition or other location is, as an identifier: `#/$defs/line_item` -> `line_item`. */
function place(location: string): string {
  const steps = location.replace(/^#\/?/, "").split("/");
  const definition = steps.length === 2 && (steps[0] === "$defs" || steps[0] === "definitions");
  const text = (definition ? [steps[1] as string] : steps).map((step) => step.replace(/~1/g, "/").replace(/~0/g, "~")).join("_");
  return word(text);
}

/** `text` as identifier characters; text that loses characters on the way gets its hash, so two never meet. */
function word(text: string): string {
  const plain = text.replace(/[^A-Za-z0-9_]+/g, "_");
  return plain === text && plain !== "" ? plain : `${plain}_${hash(text)}`;
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 6);
}
