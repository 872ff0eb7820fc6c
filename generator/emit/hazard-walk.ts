// The hazard walk written per tool (contract/tool-spec.ts `HazardWalk`). The runtime's own walk
// (parse/json-hazards.ts) visits any JSON value before validation: it loops over each object's
// keys and asks each value's type. Run after the validator instead, a walk knows what the schema
// guarantees: the type of every property it declares, so each object's declared properties are
// read by name, open object or closed (`namedObject`). It adds up what the runtime's walk does
// (keys, and the shortest text that spells the value, which rule out a repeated key) and flags
// what could be a hazard (a number past 2^53, a string that is not well-formed); anything flagged,
// or an extra key it did not read, sends the text to the runtime's walk, which says what it is.
// The walk went from ~120 ns to ~47 ns on the invoice, ~80 to ~20 on pulls/create (issue 25).
//
// Where the schema promises no single type (a combinator, a union other than with null), the
// walk asks the value's own type and walks its objects with every name the alternatives declare
// (walk-shapes.ts); a container no alternative declares anything in, or an extra key of an object
// read by a loop (one that declares `constructor`), is measured as any value (`anyValue`), against
// the guard's depth limit. A tool whose arguments are not a typed object gets no walk, nor does one
// whose validator could recurse as deep as the value: the validator sees a value before its depth
// is checked (no `$ref` cycle, no `uniqueItems` over items that may be containers).
import type { ToolDescription } from "../ir.ts";
import { decodeToken, resolveLocalRef } from "../json-pointer.ts";
import { uniqueName } from "../load/localize-schema.ts";
import { Code, isSafeIdentifier, literal } from "../safe-emit.ts";
import { isSchemaObject, walkSchemas, type Schema } from "../schema-walk.ts";
import { isWellFormed } from "../../templates/runtime/parse/json-hazards.ts";
import { readings } from "./union-branches.ts";
import { ANY, guardedAnalyser, hasCombinator, LEAVES, typeOf, type Leaf, type ObjectShape, type Shape } from "./walk-shapes.ts";
import { coercibleProbe } from "./coercible-probe.ts";
import { plainPathProbe } from "./path-probe.ts";
import type { CoercionTable } from "../../templates/runtime/contract/tool-spec.ts";

/** The runtime helpers a walk imports. */
export const HAZARD_WALK_IMPORT = 'import { anyValue, shortestNumber } from "../runtime/parse/json-hazards.js";';

const MAX_REF_HOPS = 32;

/**
 * The `hazardWalk` of a tool's module, or undefined when its arguments are not a typed object.
 * It also holds the coercion step's printed look at `coercions`' places (coercible-probe.ts) and
 * the path check's at the HTTP binding's path arguments (path-probe.ts), when there are any.
 */
export function hazardWalk(tool: Pick<ToolDescription, "inputSchema" | "http">, coercions: CoercionTable = {}): Code | undefined {
  const root = tool.inputSchema as Schema;
  const objects: ObjectShape[] = [];
  const shapes = new Map<Schema, ObjectShape>();
  /** Objects being analysed: meeting one again is recursion, which has no bounded depth. */
  const open = new Set<ObjectShape>();
  const names = new Set<string>();
  const guarded = guardedAnalyser(root, objects, names);
  /** `label`: where the value is, for naming its object's function; a definition names it instead. */
  const analyse = (value: unknown, following: ReadonlySet<string>, label: string): Shape => {
    let node = value;
    let place = label;
    const seen = new Set(following);
    // A `$ref`'s target holds whether or not the keywords beside it apply (they do in 2020-12,
    // not in draft-07): what the target promises is promised.
    for (let hops = 0; isSchemaObject(node) && typeof node["$ref"] === "string"; hops++) {
      const ref = node["$ref"];
      if (hops >= MAX_REF_HOPS || seen.has(ref)) return ANY;
      seen.add(ref);
      node = resolveLocalRef(root, ref);
      place = decodeToken(ref.slice(ref.lastIndexOf("/") + 1));
    }
    if (!isSchemaObject(node)) return ANY;
    // `type` holds whatever else the schema says beside it: every keyword is a further condition.
    const typed = typeOf(node["type"]);
    // Several types, or an object whose alternatives or parts declare its keys: its own type decides.
    if (typed === undefined || (typed.type === "object" && hasCombinator(node))) return guarded([node], place);
    if (typed.type !== "object" && typed.type !== "array") return { kind: "leaf", type: typed.type as Leaf, nullable: typed.nullable };
    if (typed.type === "array") {
      const items = isSchemaObject(node["items"]) && node["prefixItems"] === undefined ? analyse(node["items"], seen, `${place}_item`) : ANY;
      return { kind: "array", items, nullable: typed.nullable };
    }
    const known = shapes.get(node);
    if (known) return open.has(known) ? ANY : { kind: "object", object: known, nullable: typed.nullable };
    const properties = isSchemaObject(node["properties"]) ? node["properties"] : {};
    const object: ObjectShape = {
      name: uniqueName(`walk_${place.replace(/[^A-Za-z0-9_$]+/g, "_")}`, names),
      closed: node["additionalProperties"] === false && node["patternProperties"] === undefined,
      members: [],
    };
    shapes.set(node, object);
    objects.push(object);
    open.add(object);
    for (const [name, child] of Object.entries(properties)) {
      // A name every object has (`constructor`, `__proto__`) would read as present when absent.
      if (name in Object.prototype || !isWellFormed(name)) object.closed = false;
      object.members.push({ name, shape: analyse(child, seen, place === "arguments" ? name : `${place}_${name}`) });
    }
    open.delete(object);
    return { kind: "object", object, nullable: typed.nullable };
  };
  const top = analyse(root, new Set(), "arguments");
  if (top.kind !== "object" || top.nullable || !validatorDepthIsBounded(root)) return undefined;
  const [probe, plainPath] = [coercibleProbe(coercions), plainPathProbe(tool.http)];
  return new Code(
    [
      "(() => {",
      ...WALK_COMMENT,
      "  const MAX = Number.MAX_SAFE_INTEGER;",
      ...objects.map((object) => (readableByName(object) ? namedObject(object) : openObject(object))),
      "  return {",
      `    depth: ${depthOf(top)},`,
      "    walk: (value, checkStrings, state) => {",
      "      state.undeclared = false;",
      `      return ${top.object.name}(value, checkStrings, state, 1);`,
      "    },",
      ...(probe === undefined ? [] : [`    coercible: ${probe.text},`]),
      ...(plainPath === undefined ? [] : [`    plainPath: ${plainPath.text},`]),
      "  };",
      "})()",
    ].join("\n"),
  );
}

/**
 * Whether the tool's validator recurses no deeper than its schema, whatever the value: no `$ref`
 * leads back to itself (a recursive schema validates a nested value level by level), and no
 * `uniqueItems` is over items that may be objects or arrays (comparing and hashing items recurse
 * into them). Unreferenced definitions count too: cheaper than proving they are unreferenced.
 */
function validatorDepthIsBounded(root: Schema): boolean {
  const following = new Set<string>();
  const followed = new Set<string>();
  let bounded = true;
  const visit = (schema: unknown): void =>
    walkSchemas(schema, (node) => {
      if (!bounded) return;
      if (node["uniqueItems"] === true && (node["prefixItems"] !== undefined || !primitive(root, node["items"]))) bounded = false;
      const ref = node["$ref"];
      if (typeof ref !== "string" || followed.has(ref)) return;
      if (following.has(ref)) {
        bounded = false;
        return;
      }
      following.add(ref);
      visit(resolveLocalRef(root, ref));
      following.delete(ref);
      followed.add(ref);
    });
  visit(root);
  return bounded;
}

/** A schema (through its `$ref`s, `readings`) whose values are strings, numbers, booleans or null. */
function primitive(root: Schema, schema: unknown): boolean {
  const node = isSchemaObject(schema) ? readings(schema, root).at(-1) : undefined;
  const types = typeof node?.["type"] === "string" ? [node["type"]] : Array.isArray(node?.["type"]) ? (node["type"] as unknown[]) : [];
  return types.length > 0 && types.every((type) => typeof type === "string" && LEAVES.has(type));
}

/**
 * How deep the typed structure nests (the root object counts 1); values of no one type are
 * checked as they come. Objects are shared wherever a `$ref` is (the shapes are a DAG: the
 * analysis stops at recursion), so each object's depth is computed once: walking the tree would
 * take as long as the `$ref`s expand, 10^10 steps for ten levels of ten (issue 32).
 */
function depthOf(shape: Shape, depths = new Map<ObjectShape, number>()): number {
  if (shape.kind === "any" || shape.kind === "leaf") return 0;
  if (shape.kind === "guarded") {
    const object = shape.object === undefined ? 0 : depthOf({ kind: "object", object: shape.object, nullable: false }, depths);
    return Math.max(object, shape.array === undefined ? 0 : 1 + depthOf(shape.array, depths));
  }
  if (shape.kind === "array") return 1 + depthOf(shape.items, depths);
  const known = depths.get(shape.object);
  if (known !== undefined) return known;
  let deepest = 0;
  for (const member of shape.object.members) deepest = Math.max(deepest, depthOf(member.shape, depths));
  depths.set(shape.object, 1 + deepest);
  return 1 + deepest;
}

/** What the generated arithmetic means, said once at the top of every walk (issue 30: it was said only here). */
const WALK_COMMENT = [
  "  // Each walk_<object> adds up `keys`, the object's key count, and `length`, the length of the",
  "  // shortest JSON text that spells the object: a text longer than the call's arguments means a key",
  "  // was repeated. `length` starts at 1 for the braces; each member adds its key's length + 4 (two",
  "  // quotes, the colon, and a comma, one too many per object, which pays for the second brace)",
  "  // and its value: a string's length + 2 quotes, a number's shortest digits, 4 or 5 for a",
  "  // boolean, 4 for null, an array's items + 1 (brackets and commas). `length += 12 + x.length + 2`",
  "  // is an 8-character key and a string. A number past 2^53 or a string that is not well-formed",
  "  // makes the walk return false: the runtime's full walk then says what it is. Only declared keys",
  "  // are read: an extra key leaves the text spelling more than counted, and the full walk decides.",
  "  // A key measured as any value sets `state.undeclared`: the ledger then scans the raw text for",
  "  // secret names, which it skips when every key is declared.",
];

const OBJECT_END = ["    state.keys += keys;", "    state.shortest += keys === 0 ? length + 1 : length;", "    return true;", "  }"];
const OPEN_OBJECT_NOTE = "    // Open: only its declared keys are read; an extra key leaves the totals short of the text.";
// An open object read by name: `{}` counts 1, not 2, so that a lone extra member (`{"":0}`, 6) leaves 5 over.
const OPEN_OBJECT_END = ["    state.keys += keys;", "    state.shortest += length;", "    return true;", "  }"];
/** An object function's parameters: `level` is the object's nesting (the root's is 1). */
const PARAMETERS = "(value, checkStrings, state, level)";

/** Whether an object's members can be read by name: `constructor` (every object has one) cannot. */
const readableByName = (object: ObjectShape): boolean => object.members.every((member) => !(member.name in Object.prototype));

// Each member adds its key's length, its quotes, the colon and a comma (one comma too many per
// object, taken back by starting at 1 for the two braces), and its value. An open object's extra
// key is not read: the text then spells more key tokens, and a member more, than the walk counted
// (`OPEN_OBJECT_END`), so walkedClean answers false and the runtime's full walk decides. A clean
// answer therefore also says that every key was declared (`state.undeclared` stays false).
function namedObject(object: ObjectShape): string {
  const lines = [`  function ${object.name}${PARAMETERS} {`, ...(object.closed ? [] : [OPEN_OBJECT_NOTE]), "    let keys = 0;", "    let length = 1;"];
  object.members.forEach((member, index) => {
    const access = isSafeIdentifier(member.name) ? `value.${member.name}` : `value[${literal(member.name).text}]`;
    lines.push(`    ${index === 0 ? "let " : ""}x = ${access};`, "    if (x !== undefined) {", "      keys++;");
    lines.push(...valueCode(member.shape, "x", 0, member.name.length + 4, 1).map((line) => `      ${line}`), "    }");
  });
  return [...lines, ...(object.closed ? OBJECT_END : OPEN_OBJECT_END)].join("\n");
}

function openObject(object: ObjectShape): string {
  const lines = [
    `  function ${object.name}${PARAMETERS} {`,
    "    let keys = 0;",
    "    let length = 1;",
    "    for (const key in value) {",
    "      keys++;",
    "      const x = value[key];",
    "      switch (key) {",
  ];
  for (const member of object.members) {
    // A declared key of no one type has its own case too (in a block: its code declares a
    // constant), so that only a key the schema does not declare reaches the default.
    const any = member.shape.kind === "any";
    lines.push(
      `        case ${literal(member.name).text}:${any ? " {" : ""}`,
      ...valueCode(member.shape, "x", 0, member.name.length + 4, 1).map((line) => `          ${line}`),
      "          break;",
      ...(any ? ["        }"] : []),
    );
  }
  lines.push(
    "        default: {",
    "          state.undeclared = true;",
    "          if (checkStrings && !key.isWellFormed()) return false;",
    "          const n = anyValue(x, checkStrings, level + 1, state);",
    "          if (n < 0) return false;",
    "          length += key.length + 4 + n;",
    "        }",
    "      }",
    "    }",
  );
  return [...lines, ...OBJECT_END].join("\n");
}

/**
 * Statements that add `extra` and the shortest spelling of the value in `name` to `length`, or
 * return false on a possible hazard. `below`: how many levels the value is below its object.
 */
function valueCode(shape: Shape, name: string, level: number, extra: number, below: number): string[] {
  const plus = extra === 0 ? "" : `${extra} + `;
  const at = `level + ${below}`;
  if (shape.kind === "any") {
    return [`const n${level} = anyValue(${name}, checkStrings, ${at}, state);`, `if (n${level} < 0) return false;`, `length += ${plus}n${level};`];
  }
  if (shape.kind === "guarded") return guardedCode(shape, name, level, extra, below);
  const inner = ((): string[] => {
    if (shape.kind === "object") {
      return [...(extra === 0 ? [] : [`length += ${extra};`]), `if (!${shape.object.name}(${name}, checkStrings, state, ${at})) return false;`];
    }
    if (shape.kind === "array") {
      const index = `i${level}`;
      const item = `item${level}`;
      return [
        `length += ${plus}(${name}.length === 0 ? 2 : ${name}.length + 1);`,
        `for (let ${index} = 0; ${index} < ${name}.length; ${index}++) {`,
        `  const ${item} = ${name}[${index}];`,
        ...valueCode(shape.items, item, level + 1, 0, below + 1).map((line) => `  ${line}`),
        "}",
      ];
    }
    if (shape.type === "string") return [`length += ${plus}${name}.length + 2;`, `if (checkStrings && !${name}.isWellFormed()) return false;`];
    if (shape.type === "number") return [`length += ${plus}shortestNumber(${name});`, `if (!(${name} <= MAX && ${name} >= -MAX)) return false;`];
    if (shape.type === "boolean") return [`length += ${plus}(${name} ? 4 : 5);`];
    return [`length += ${extra + 4};`];
  })();
  if (!shape.nullable) return inner;
  return [`if (${name} === null) length += ${extra + 4};`, "else {", ...inner.map((line) => `  ${line}`), "}"];
}

/**
 * A guarded value (walk-shapes.ts): its own type picks the code, an object by its function, an
 * array item by item, anything else (a leaf, or a container the schema declares nothing in) as
 * any value. Every branch is a block, so that a `case` needs none.
 */
function guardedCode(shape: Extract<Shape, { kind: "guarded" }>, name: string, level: number, extra: number, below: number): string[] {
  const lines: string[] = [];
  let keyword = "if";
  if (shape.object !== undefined) {
    const code = valueCode({ kind: "object", object: shape.object, nullable: false }, name, level, extra, below);
    lines.push(`if (typeof ${name} === "object" && ${name} !== null && !Array.isArray(${name})) {`, ...code.map((line) => `  ${line}`));
    keyword = "} else if";
  }
  if (shape.array !== undefined) {
    const code = valueCode({ kind: "array", items: shape.array, nullable: false }, name, level, extra, below);
    lines.push(`${keyword} (Array.isArray(${name})) {`, ...code.map((line) => `  ${line}`));
  }
  const any = valueCode(ANY, name, level, extra, below);
  return [...lines, "} else {", ...any.map((line) => `  ${line}`), "}"];
}
