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

/** What the printed code's numbered top-level names stand for, read from ajv's state before printing. */
export interface NameSources {
  /** The function that validates the arguments (ajv's `validateN`). */
  readonly entry: string;
  /** Functions compiled for `$ref` targets: ajv's name -> `#/...` location (private-state.ts). */
  readonly functions: ReadonlyMap<string, string>;
  /** Schema constants: ajv's name -> the `#/...` location of the schema it holds (schemaLocations). */
  readonly schemas: ReadonlyMap<string, string>;
}

const TOKEN = /(?<![\w$.])[A-Za-z_$][\w$]*|[{}()]/g;
const NUMBERED = /^([A-Za-z_$][A-Za-z_$]*?)(\d+)$/;

/** `code` with ajv's numbered names replaced by names that depend on the schema location only. */
export function stableNames(code: string, sources: NameSources): { code: string; entry: string } {
  const blanked = codeOnly(code);
  if (blanked.includes("`")) throw new AjvAssumptionError("printed code has no template literals", "found a backtick outside a string");
  const tokens = [...blanked.matchAll(TOKEN)].map((match) => ({ text: match[0], at: match.index }));
  const top = topLevelNames(code, blanked, tokens, sources);
  const renames = new Map<number, string>();
  for (const [at, token] of tokens.entries()) {
    const name = top.get(token.text);
    if (name !== undefined) renames.set(at, name);
  }
  for (const body of functionBodies(tokens)) renameLocals(tokens, body, renames, top);
  const parts: string[] = [];
  let last = 0;
  for (const [index, token] of tokens.entries()) {
    const name = renames.get(index);
    if (name === undefined) continue;
    parts.push(code.slice(last, token.at), name);
    last = token.at + token.text.length;
  }
  parts.push(code.slice(last));
  const out = parts.join("");
  return { code: out, entry: top.get(sources.entry) ?? sources.entry };
}

/** The token ranges (open brace to close brace) of each top-level function's body. */
function functionBodies(tokens: readonly { text: string }[]): { open: number; close: number }[] {
  const bodies: { open: number; close: number }[] = [];
  let depth = 0;
  let parens = 0;
  let inFunction = false;
  let open = -1;
  for (const [index, { text }] of tokens.entries()) {
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

function renameLocals(
  tokens: readonly { text: string; at: number }[],
  body: { open: number; close: number },
  renames: Map<number, string>,
  top: ReadonlyMap<string, string>,
): void {
  // `var` is function-scoped, and ajv reads a `var` after the block that declares it (`contains`
  // tests `valid2` after its loop, which may not have run): such a name is never shared, and is
  // numbered per function in order of appearance instead.
  const vars = new Map<string, string>();
  const varCount = new Map<string, number>();
  for (let index = body.open; index <= body.close; index++) {
    const declared = tokens[index + 1]?.text ?? "";
    const numbered = NUMBERED.exec(declared);
    if (tokens[index]?.text !== "var" || !numbered || vars.has(declared)) continue;
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
    const { text } = tokens[index] as { text: string };
    if (text === "(") {
      parens++;
      if (tokens[index - 1]?.text === "for") forHead = parens;
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
      const declared = tokens[index + 1]?.text ?? "";
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
    } else if (NUMBERED.test(text)) {
      const entry = live.get(text);
      const asVar = vars.get(text);
      if (entry) {
        renames.set(index, entry.name);
        local.add(entry.name);
      } else if (asVar !== undefined && declaredVars.has(text)) {
        renames.set(index, asVar);
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

/** `prefix` with the lowest number no live name of that prefix, and no `var` of the function, holds. */
function freeName(prefix: string, live: ReadonlyMap<string, Live>, vars: ReadonlySet<string>): string {
  const taken = new Set<string>(vars);
  for (const entry of live.values()) if (entry.prefix === prefix) taken.add(entry.name);
  for (let n = 0; ; n++) if (!taken.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

/** Each numbered top-level name (a declaration outside every function) -> its word. */
function topLevelNames(code: string, blanked: string, tokens: readonly { text: string; at: number }[], sources: NameSources): Map<string, string> {
  const wanted = new Map<string, string>();
  let depth = 0;
  for (const [index, { text, at }] of tokens.entries()) {
    if (text === "{") depth++;
    else if (text === "}") depth--;
    if (depth !== 0) continue;
    const declared = tokens[index + 1]?.text ?? "";
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

/**
 * Assumption 10 again (`const schemaN = <JSON>;`, one line each): the location in `compiled`,
 * the schema ajv compiled, of the value each schema constant holds; the first location in
 * document order when the same value sits at several.
 */
export function schemaLocations(code: string, compiled: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const constants = [...code.matchAll(/^const (schema\d+) = (.*);$/gm)];
  if (constants.length === 0) return out;
  const where = new Map<string, string>();
  const visit = (value: unknown, pointer: string): string => {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    const parts: string[] = [];
    if (Array.isArray(value)) for (const [index, item] of value.entries()) parts.push(visit(item, `${pointer}/${index}`));
    else
      for (const [key, child] of Object.entries(value)) {
        if (child === undefined) continue;
        parts.push(`${JSON.stringify(key)}:${visit(child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`)}`);
      }
    const text = Array.isArray(value) ? `[${parts.join(",")}]` : `{${parts.join(",")}}`;
    if (!where.has(text)) where.set(text, pointer);
    return text;
  };
  visit(compiled, "#");
  for (const [, name, text] of constants) {
    const location = where.get(text as string);
    if (location !== undefined) out.set(name as string, location);
  }
  return out;
}
