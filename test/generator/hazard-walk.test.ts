import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hazardWalk } from "../../generator/emit/hazard-walk.ts";
import { createGuard } from "../../templates/runtime/call/guard.ts";
import type { HazardWalk, JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { loadWalk, walkedSpec } from "../helpers/walked-spec.ts";

const schema = {
  type: "object",
  properties: {
    amount: { type: "number", minimum: 0 },
    count: { type: "integer" },
    "due-date": { type: ["string", "null"] },
    draft: { type: "boolean" },
    note: { type: "string" },
    lines: { type: "array", items: { $ref: "#/$defs/line" } },
    grid: { type: "array", items: { type: "array", items: { type: "number" } } },
    owner: { type: ["object", "null"], properties: { name: { type: "string" } }, additionalProperties: false },
    // An open object (extra keys of any kind), a value of no one type, an open object that nests
    // as deep as the value does, and a closed object read by a loop because a property is named
    // like something every object has.
    meta: { type: "object", properties: { k: { type: "string" }, n: { type: "integer" } } },
    either: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "object" }] },
    nest: { type: "object" },
    proto: { type: "object", properties: { constructor: { type: "string" } }, additionalProperties: false },
    // Values of several types whose objects declare keys (guarded walks, walk-shapes.ts): a string
    // or an object (GitHub's labels), objects told apart by a property whose other members have a
    // different type in each branch, and parts of an `allOf`.
    labels: { type: "array", items: { oneOf: [{ type: "string" }, { type: "object", properties: { name: { type: "string" }, id: { type: "integer" } } }] } },
    rule: {
      type: "object",
      oneOf: [
        { properties: { type: { const: "a" }, parameters: { type: "object", properties: { x: { type: "integer" } } } }, required: ["type"] },
        {
          properties: { type: { const: "b" }, parameters: { type: "object", properties: { x: { type: "string" }, y: { type: "array" } } } },
          required: ["type"],
        },
      ],
    },
    both: { allOf: [{ type: "object", properties: { p: { type: "string" } } }, { properties: { q: { type: "array", items: { type: "integer" } } } }] },
  },
  required: ["amount"],
  additionalProperties: false,
  $defs: {
    line: {
      type: "object",
      properties: { sku: { type: "string" }, qty: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
      additionalProperties: false,
    },
  },
};

const load = loadWalk;
const spec = walkedSpec;

const sink = { append() {}, flush: () => Promise.resolve(), close: () => Promise.resolve() };
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a\nb", '"q"', "\\", "😀", "é"));
const number = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constant(0.5));
const line = fc.record({ sku: text, qty: fc.integer({ min: 0, max: 99 }), tags: fc.array(text, { maxLength: 3 }) }, { requiredKeys: [] });
const args = fc.record(
  {
    amount: number,
    count: fc.integer(),
    "due-date": fc.option(text),
    draft: fc.boolean(),
    note: text,
    lines: fc.array(line, { maxLength: 3 }),
    grid: fc.array(fc.array(number, { maxLength: 3 }), { maxLength: 2 }),
    owner: fc.option(fc.record({ name: text })),
    meta: fc.record(
      { k: text, n: fc.integer(), extra: fc.oneof(text, number, fc.boolean(), fc.constant(null), fc.constant([1]), fc.constant({ a: 1 })) },
      { requiredKeys: [] },
    ),
    either: fc.oneof(text, fc.integer(), fc.constant({ a: "b" })),
    nest: fc.record({ deep: fc.jsonValue({ maxDepth: 5 }) }, { requiredKeys: [] }),
    proto: fc.record({ constructor: text }, { requiredKeys: [] }),
    labels: fc.array(fc.oneof(text, fc.record({ name: text, id: fc.integer(), more: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] })), { maxLength: 3 }),
    rule: fc.oneof(
      fc.record(
        { type: fc.constant("a"), parameters: fc.record({ x: fc.integer(), y: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }) },
        { requiredKeys: ["type"] },
      ),
      fc.record(
        { type: fc.constant("b"), parameters: fc.record({ x: text, y: fc.array(fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] }) },
        { requiredKeys: ["type"] },
      ),
    ),
    both: fc.record({ p: text, q: fc.array(fc.integer(), { maxLength: 3 }), r: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ["amount"] },
);

/** The text of `value` as a model might write it, with one of the changes the hazard checks exist for. */
const texts = fc.tuple(args, fc.nat(29), fc.nat(1000)).map(([value, change, at]) => {
  const compact = JSON.stringify(value);
  switch (change) {
    case 0:
      return JSON.stringify(value, null, 2);
    case 1:
      return `{"amount":1,${compact.slice(1)}`; // repeated key
    case 2:
      return compact.replace(/"amount":[^,}]*/, '"amount":12345678901234567890'); // lost digits
    case 3:
      return compact.replace(/"amount":[^,}]*/, '"amount":1e400'); // overflow
    case 4:
      return compact.replace(/"note":"/, '"note":"\\ud800'); // lone surrogate, escaped
    case 5:
      return compact.replace(/"note":"/, '"note":"\\n\\u00e9'); // escapes, well-formed
    case 6:
      return `${compact.slice(0, -1)},"extra":${at}}`; // invalid: unknown key
    case 7:
      return compact.replace(/"amount":[^,}]*/, `"amount":"${at}"`); // invalid: wrong type
    case 9:
      return `{"extra":1,"extra":2,${compact.slice(1)}`; // invalid and a repeated key: the key is said first
    case 10:
      return `{"amount":"${at}",${compact.slice(1).replace(/"note":"/, '"note":"\\udc00')}`; // invalid, repeated, a lone surrogate
    case 11:
      return `{"note":{"s":"\\ud800"},${compact.slice(1).replace(/"note":/, '"memo":')}`; // invalid where the walk's types do not hold
    case 12: // hazards inside a value of no one type, and inside an open object's extra key
      return `{"either":{"s":"\\ud800","n":12345678901234567890},${JSON.stringify({ ...value, either: undefined }).slice(1)}`;
    case 13:
      return `{"meta":{"extra":{"x":1,"x":2}},${JSON.stringify({ ...value, meta: undefined }).slice(1)}`;
    case 14: // no key inside to give the unmeasured array away
      return `{"meta":{"extra":[12345678901234567890]},${JSON.stringify({ ...value, meta: undefined }).slice(1)}`;
    case 15:
      return `{"either":"\\ud800",${JSON.stringify({ ...value, either: undefined }).slice(1)}`;
    case 16: // a repeated extra key, compact: only the exact count of its object rules it out
      return `{"amount":${at},"meta":{"a":1,"b":2,"c":3,"a":1}}`;
    case 17:
      return `{"meta":{"\\ud800":1},${JSON.stringify({ ...value, meta: undefined }).slice(1)}`;
    case 18: // nesting past the limit, where the schema gives no type
      return `{"meta":{"extra":${"[".repeat(70)}${"]".repeat(70)}},${JSON.stringify({ ...value, meta: undefined }).slice(1)}`;
    case 19: // hazards inside the objects of guarded values: a lone surrogate, lost digits, a repeated key
      return `{"labels":["a",{"name":"\\ud800"}],${JSON.stringify({ ...value, labels: undefined }).slice(1)}`;
    case 20:
      return `{"rule":{"type":"a","parameters":{"x":12345678901234567890}},${JSON.stringify({ ...value, rule: undefined }).slice(1)}`;
    case 21:
      return `{"both":{"p":"a","p":"b"},${JSON.stringify({ ...value, both: undefined }).slice(1)}`;
    case 22: // a guarded value the schema refuses, holding a hazard
      return `{"rule":{"type":"b","parameters":{"x":{"\\udc00":[1e400]}}},${JSON.stringify({ ...value, rule: undefined }).slice(1)}`;
    case 23: // not JSON: cut short, or in single quotes (the attempt's own parse of a text and parseArguments' must agree)
      return compact.slice(0, 1 + (at % (compact.length - 1)));
    case 24:
      return compact.replaceAll('"', "'");
    case 8:
      return compact.replace(/"lines":\[\{/, '"lines":[{"qty":1,'); // repeated key in an item, maybe
    default:
      return compact;
  }
});

function answer(tool: ReturnType<typeof createGuard>, raw: string, finishReason?: string): unknown {
  const result = tool.check(raw, { turn: `${Math.random()}`, finishReason });
  return result.ok ? { ok: true, args: result.args } : { ok: false, outcome: result.outcome };
}

describe("a generated hazard walk", () => {
  it("answers every text exactly as the runtime's walk before validation does", () => {
    const walk = load(schema);
    expect(walk?.depth).toBe(4);
    // The guarded values get walks of their own (else this test would say nothing of them).
    const code = hazardWalk({ inputSchema: schema as JsonSchema })?.text ?? "";
    for (const name of ["walk_labels_item", "walk_rule_parameters", "walk_both"]) expect(code).toContain(`function ${name}(`);
    const plain = createGuard(spec(schema, undefined), () => "ran", { ledger: sink });
    const walked = createGuard(spec(schema, walk), () => "ran", { ledger: sink });
    // A depth limit just above the typed structure's: the open nest goes past it.
    const plainShallow = createGuard(spec(schema, undefined), () => "ran", { ledger: sink, maxDepth: 5 });
    const walkedShallow = createGuard(spec(schema, walk), () => "ran", { ledger: sink, maxDepth: 5 });
    // A size limit some texts exceed: refused before any parse, with or without the walk.
    const plainSmall = createGuard(spec(schema, undefined), () => "ran", { ledger: sink, maxBytes: 120 });
    const walkedSmall = createGuard(spec(schema, walk), () => "ran", { ledger: sink, maxBytes: 120 });
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(texts, fc.constantFrom(undefined, "stop", "length"), (raw, finishReason) => {
        const expected = answer(plain, raw, finishReason) as { ok: boolean; outcome?: { failure?: string } };
        expect(answer(walked, raw, finishReason)).toEqual(expected);
        expect(answer(walkedShallow, raw, finishReason)).toEqual(answer(plainShallow, raw, finishReason));
        expect(answer(walkedSmall, raw, finishReason)).toEqual(answer(plainSmall, raw, finishReason));
        const kind = expected.ok ? "ok" : (expected.outcome?.failure ?? "other");
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
      }),
      { numRuns: 1500 },
    );
    // The texts reach every way a call can go: valid, hazards, schema errors. Valid texts are
    // the rarest (54-67 of 1,500 over five runs; a bound of 50 failed about one run in ten).
    for (const kind of ["ok", "syntactic", "structural"]) expect(seen.get(kind) ?? 0).toBeGreaterThan(20);
  });

  it("is used only within the depth limit, and is what clears a valid text", () => {
    const walk = load(schema) as HazardWalk;
    let walks = 0;
    const counted: HazardWalk = {
      depth: walk.depth,
      walk: (value, checkStrings, totals) => {
        walks++;
        return walk.walk(value, checkStrings, totals);
      },
    };
    const raw = '{"amount":1,"lines":[{"sku":"a"}]}';
    expect(createGuard(spec(schema, counted), () => "ran", { ledger: sink, maxDepth: 3 }).check(raw, { turn: "a" }).ok).toBe(true);
    expect(walks).toBe(0);
    expect(createGuard(spec(schema, counted), () => "ran", { ledger: sink }).check(raw, { turn: "b" }).ok).toBe(true);
    expect(walks).toBe(1);
    // A walk that clears everything would let a repeated key through: the walk's own totals decide.
    const blind: HazardWalk = { depth: 1, walk: () => true };
    const repeated = '{"amount":1,"amount":2}';
    expect(createGuard(spec(schema, blind), () => "ran", { ledger: sink }).check(repeated, { turn: "c" }).ok).toBe(false);
  });

  it("is written for arguments that are a typed object, reading closed objects by name", () => {
    const object = (properties: object, extra: object = {}) => ({ type: "object", properties, additionalProperties: false, ...extra });
    const code = (schema: object) => hazardWalk({ inputSchema: schema as JsonSchema })?.text ?? "";
    expect(code(object({ a: { type: "string" } }))).toContain("x = value.a;");
    // An open object is read by name too (its extra keys are left to the runtime's walk:
    // hazard-walk-open.test.ts); one with a property every object has is read by a loop over its keys.
    for (const open of [{ type: "object", properties: { a: { type: "string" } } }, object({ a: { type: "string" } }, { patternProperties: { "^x": {} } })]) {
      expect(code(open)).toContain("x = value.a;");
      expect(code(open)).not.toContain("for (const key in value)");
    }
    expect(code(object({ constructor: { type: "string" } }))).toContain("for (const key in value)");
    // No single type: measured as a leaf; an object or array there is left to the full walk.
    expect(code(object({ a: { anyOf: [{ type: "string" }, { type: "number" }] } }))).toContain("anyValue(x, checkStrings, level + 1, state)");
    expect(code(object({ a: { type: ["string", "number"] } }))).toContain("anyValue(x, checkStrings, level + 1, state)");
    expect(load(object({ tags: { type: "array", uniqueItems: true, items: { type: "string" } } }))?.depth).toBe(2);
    expect(load(object({ a: { $ref: "#/$defs/b" } }, { $defs: { b: object({ c: { type: "integer" } }) } }))?.depth).toBe(2);
    // A validator that could recurse as deep as the value gets none: the walk lets it see a value
    // before the depth is checked. A recursive $ref, uniqueItems over objects or arrays.
    expect(load(object({ kids: { type: "array", items: { $ref: "#" } } }))).toBeUndefined();
    expect(
      load(object({ a: { $ref: "#/$defs/b" } }, { $defs: { b: object({ c: { $ref: "#/$defs/d" } }), d: object({ e: { $ref: "#/$defs/b" } }) } })),
    ).toBeUndefined();
    expect(load(object({ rows: { type: "array", uniqueItems: true, items: { type: "object" } } }))).toBeUndefined();
    expect(load(object({ rows: { type: "array", uniqueItems: true } }))).toBeUndefined();
    // Arguments that are not a typed object get none.
    expect(load({ ...object({ a: { type: "string" } }), type: ["object", "null"] })).toBeUndefined();
    expect(load({ properties: { a: { type: "string" } } })).toBeUndefined();
    expect(load({ anyOf: [object({}), object({ a: { type: "string" } })] })).toBeUndefined();
  });

  it("reports nesting past the limit as too deep, however deep, before the validator could recurse into it", () => {
    const deep = `{"amount":1,"nest":{"deep":${"[".repeat(200_000)}${"]".repeat(200_000)}}}`;
    const recursive = { type: "object", properties: { kids: { type: "array", items: { $ref: "#" } } }, additionalProperties: false };
    const deepTree = `{"kids":[${'{"kids":['.repeat(60_000)}${"]}".repeat(60_000)}]}`;
    expect(load(recursive)).toBeUndefined();
    for (const [inputSchema, raw] of [
      [schema, deep],
      [recursive, deepTree],
    ] as const) {
      const tool = createGuard(spec(inputSchema, load(inputSchema)), () => "ran", { ledger: sink });
      const result = tool.check(raw, { turn: "deep" });
      expect(result.ok ? "ok" : result.outcome.status === "validation_failed" && result.outcome.errors[0]?.rule).toBe("too_deep");
    }
  });
});
