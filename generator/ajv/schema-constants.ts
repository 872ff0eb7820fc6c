// ajv's standalone code declares each compiled schema as a constant (`const schema31 = {...}`,
// the whole input schema for the root) but reads only a few values from it: a `type` array or an
// `enum` for an error's params, a `properties` object to test keys against. Printing the whole
// schema again made every validator carry a second copy of the input schema for V8 to compile
// at import. Each constant is cut down to the values the code reads, at the paths it reads them.

import { rewrite } from "./assumption.ts";
import { codeOnly } from "./code-text.ts";
import { type ConstantValues, constantValue, NOT_JSON } from "./constant-values.ts";
import { SCHEMA_CONSTANT } from "./printed-output.ts";

/** One step of a property access: a name (`.enum`, `["x-y"]`) or an array index (`[0]`). */
type Step = string | number;

const IDENTIFIER = String.raw`[A-Za-z_$][\w$]*`;
// `.name`, `[0]` or `["name"]`: the accesses ajv writes with constant keys (getProperty), one
// after the other from the start of the text (sticky).
const STEP = new RegExp(String.raw`(?:\.(${IDENTIFIER})|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])`, "y");

/**
 * Replaces every `const schemaN = <JSON>;` whose value is only read through constant property
 * accesses by the parts those accesses reach, each kept whole. Any other use of the constant
 * (passed on, indexed by a variable) keeps the value from that point down; a constant that is
 * used bare, or that is not one line of JSON, is left as ajv wrote it; one nothing reads is
 * left out.
 */
export function pruneSchemaConstants(code: string, own: string = codeOnly(code)): string {
  return pruneWithBlanked(code, own).code;
}

/**
 * pruneSchemaConstants, with the pruned code's blanked copy (codeOnly of it) for the passes after
 * it: the copy handed in with only the rewritten declarations blanked again.
 */
export function pruneWithBlanked(
  code: string,
  own: string = codeOnly(code),
  /** The constants' values parsed so far for this validator (constant-values.ts), shared with schemaLocations. */
  values?: ConstantValues,
): { code: string; blanked: string } {
  // Code that names a schema value must declare it the way SCHEMA_CONSTANT expects.
  // Both searches read ajv's own code only (`own`, code-text.ts's codeOnly(code)): a string may say `schema3` too.
  if (!/(?<![\w$.])schema\d+\b/.test(own)) return { code, blanked: own };
  // Every use of every constant, found in one scan: a search of the whole code per constant
  // read a large validator once for each of its definitions.
  const uses = constantUses(own);
  const blankedParts: string[] = [];
  let last = 0;
  const pruned = rewrite(
    code,
    SCHEMA_CONSTANT,
    (declaration, name: string, text: string, newline: string, offset: number) => {
      const replaced = pruned1(declaration, name, text, newline, offset);
      if (replaced !== declaration) {
        blankedParts.push(own.slice(last, offset), codeOnly(replaced));
        last = offset + declaration.length;
      }
      return replaced;
    },
    "schema values are declared one per line as `const schemaN = <JSON>;`",
  );
  blankedParts.push(own.slice(last));
  return { code: pruned, blanked: blankedParts.join("") };

  function pruned1(declaration: string, name: string, text: string, newline: string, offset: number): string {
    const value = constantValue(text, values);
    if (value === NOT_JSON) return declaration;
    const paths = accessPaths(code, uses.get(name) ?? [], name, offset + "const ".length);
    if (paths === undefined) return declaration;
    // ajv declares the schema of every `$ref` target, read or not; a constant nothing reads goes.
    if (paths.length === 0) return "";
    return `const ${name} = ${printJson(keep(value, paths))};${newline}`;
  }
}

/**
 * Where ajv's own code (`own`, codeOnly's view) names a schema constant: each `schemaN` not
 * after `.` nor inside an identifier, the offsets of each name in order. The same matches as
 * searching for each name alone with `(?<![\w$.])schemaN(?![\w$])`.
 */
export function constantUses(own: string): Map<string, number[]> {
  const uses = new Map<string, number[]>();
  for (let at = own.indexOf("schema"); at >= 0; at = own.indexOf("schema", at + 1)) {
    if (at > 0 && isNameChar(own.charCodeAt(at - 1), true)) continue;
    let end = at + "schema".length;
    while (isDigit(own.charCodeAt(end))) end++;
    if (end === at + "schema".length || isNameChar(own.charCodeAt(end), false)) continue;
    const name = own.slice(at, end);
    const offsets = uses.get(name);
    if (offsets) offsets.push(at);
    else uses.set(name, [at]);
  }
  return uses;
}

/** `[\w$]`, and `.` too when `orDot` (the characters a name may not follow). NaN (past either end) is none. */
function isNameChar(char: number, orDot: boolean): boolean {
  return (char >= 0x61 && char <= 0x7a) || (char >= 0x41 && char <= 0x5a) || isDigit(char) || char === 0x5f || char === 0x24 || (orDot && char === 0x2e);
}

function isDigit(char: number): boolean {
  return char >= 0x30 && char <= 0x39;
}

/** The constant-key access chains the code reads `name` through, at `offsets` (constantUses); undefined if one is empty. */
function accessPaths(code: string, offsets: readonly number[], name: string, declared: number): Step[][] | undefined {
  const paths: Step[][] = [];
  for (const at of offsets) {
    if (at === declared) continue;
    const steps: Step[] = [];
    // The steps are read within 4,096 characters of the name, as one window.
    const rest = code.slice(at + name.length, at + name.length + 4096);
    STEP.lastIndex = 0;
    for (let step = STEP.exec(rest); step; step = STEP.exec(rest))
      steps.push(step[1] ?? (step[2] !== undefined ? Number(step[2]) : (JSON.parse(step[3] as string) as string)));
    // `schemaN.enum[i0]` reads all of `enum`; `schemaN(...)` or bare `schemaN`, everything.
    if (steps.length === 0) return undefined;
    paths.push(steps);
  }
  return paths;
}

/**
 * The parts of `value` the paths reach, each kept whole; array holes are `null`. A step that is
 * not an own key or index of the value there (`.length`, `.includes(...)`) keeps that value
 * whole, so nothing the code reads can come out different.
 */
function keep(value: unknown, paths: readonly Step[][]): unknown {
  if (value === null || typeof value !== "object") return value;
  if (paths.some((path) => path.length === 0)) return value;
  const children = new Map<string, Step[][]>();
  for (const [first, ...rest] of paths) {
    const key = String(first);
    if (!Object.hasOwn(value, key) || (Array.isArray(value) && !/^(?:0|[1-9]\d*)$/.test(key))) return value;
    children.set(key, [...(children.get(key) ?? []), rest]);
  }
  if (Array.isArray(value)) {
    const last = Math.max(...[...children.keys()].map(Number));
    return value.slice(0, last + 1).map((item: unknown, index) => {
      const rest = children.get(String(index));
      return rest ? keep(item, rest) : null;
    });
  }
  // In the schema's own key order, so the output does not depend on the order of the code;
  // `fromEntries` defines a `__proto__` key as data, where assigning it would not.
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]) => {
      const rest = children.get(key);
      return rest ? [[key, keep(child, rest)]] : [];
    }),
  );
}

// ajv prints constants as JSON on one line, with U+2028/U+2029 escaped: keep both.
function printJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}
