// The generated rewrite of a reference field's object (generator/emit/reference-rewrites.ts) is
// `withoutField` made specific to the tool: for any object the model can send, including keys
// the schema does not name, `__proto__`, integer-like keys and keys in any order, it builds the
// same object with the same keys in the same order. And the guard rebuilds through it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { referenceRewrites } from "../../generator/emit/reference-rewrites.ts";
import type { ReferenceRewrite, ReferenceRewrites, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { putOwn, withoutField } from "../../templates/runtime/resolve/apply-resolutions.ts";
import { createGuard } from "../../templates/runtime/call/guard.ts";

const schema = {
  type: "object",
  properties: {
    amount: { type: "number" },
    "due-date": { type: "string" },
    constructor: { type: "string" },
    ["__proto__"]: { type: "string" },
    "1": { type: "string" },
    customer_ref: { type: "string" },
    items: { type: "array", items: { $ref: "#/$defs/item" } },
  },
  $defs: {
    item: { allOf: [{ $ref: "#/$defs/base" }, { properties: { sku_ref: { type: "string" }, quantity: { type: "integer" } } }] },
    base: { properties: { note: { type: "string" } } },
  },
};

/** The rewrites the generator writes for `references`, loaded as the tool's module would run them. */
function load(references: Record<string, { kind: string; target: string }>, inputSchema: Record<string, unknown> = schema): ReferenceRewrites {
  const code = referenceRewrites({ references, inputSchema });
  if (code === undefined) throw new Error("no rewrites for a tool with references");
  return new Function("putOwn", `return ${code.text};`)(putOwn) as ReferenceRewrites;
}

/** Own keys in order, each with its value (Object.is), and the prototype: what "the same object" means here. */
function shape(object: Record<string, unknown>): unknown {
  return {
    keys: Reflect.ownKeys(object),
    values: Reflect.ownKeys(object).map((key) => Object.getOwnPropertyDescriptor(object, key)),
    proto: Object.getPrototypeOf(object),
  };
}

const keyNames = fc.oneof(
  fc.constantFrom(
    "amount",
    "due-date",
    "constructor",
    "__proto__",
    "1",
    "0",
    "customer_ref",
    "customer_id",
    "items",
    "note",
    "sku_ref",
    "quantity",
    "toString",
  ),
  fc.string({ maxLength: 6 }),
);
/** A holder as JSON.parse makes it: own keys in the text's order, `__proto__` an own property. */
const holders = fc
  .array(fc.tuple(keyNames, fc.jsonValue({ maxDepth: 1 })), { maxLength: 10 })
  .map((pairs) => JSON.parse(`{${pairs.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")}}`) as Record<string, unknown>);

describe("a generated reference rewrite", () => {
  it.each([
    ["/customer_ref", "customer_ref", "customer_id"],
    ["/items/*/sku_ref", "sku_ref", "sku_id"],
    ["/customer_ref", "customer_ref", "__proto__"],
    ["/customer_ref", "customer_ref", "due-date"],
  ])("builds what withoutField builds, for %s (field %s) into %s", (pattern, field, target) => {
    const rewrite = load({ [pattern]: { kind: "customer", target } })[pattern] as ReferenceRewrite;
    fc.assert(
      fc.property(holders, fc.string({ maxLength: 6 }), (holder, id) => {
        expect(shape(rewrite(holder, id))).toEqual(shape(withoutField(holder, field, target, id)));
      }),
      { numRuns: 300 },
    );
  });

  it("names the schema's keys, through $ref and allOf, and at most twelve", () => {
    const code = referenceRewrites({ references: { "/items/*/sku_ref": { kind: "sku", target: "sku_id" } }, inputSchema: schema })?.text ?? "";
    expect(code).toContain('case "note":');
    expect(code).toContain("rebuilt.quantity = holder.quantity;");
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`p${index}`, { type: "string" }])) };
    const wideCode = referenceRewrites({ references: { "/p0": { kind: "x", target: "x_id" } }, inputSchema: wide })?.text ?? "";
    expect(wideCode.match(/^ {8}case /gm)).toHaveLength(1 + 12);
    const rewrite = load({ "/p0": { kind: "x", target: "x_id" } }, wide)["/p0"] as ReferenceRewrite;
    const holder = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`p${19 - index}`, `v${index}`]));
    expect(shape(rewrite(holder, "x_1"))).toEqual(shape(withoutField(holder, "p0", "x_id", "x_1")));
    // `__proto__` is never named: assigning it would set the prototype.
    expect(code).not.toContain("rebuilt.__proto__");
    expect(referenceRewrites({ references: {}, inputSchema: schema })).toBeUndefined();
  });

  /** A guard of a tool with `references`, whose rewrites build with `withoutField` and keep what they built. */
  function guarded(references: Record<string, { kind: string; target: string }>) {
    const rebuilt: unknown[] = [];
    const received: unknown[] = [];
    const rewrites: ReferenceRewrites = Object.fromEntries(
      Object.entries(references).map(([pattern, field]) => [
        pattern,
        (holder: Readonly<Record<string, unknown>>, id: string) => {
          const object = withoutField(holder, pattern.slice(pattern.lastIndexOf("/") + 1), field.target, id);
          rebuilt.push(object);
          return object;
        },
      ]),
    );
    const spec: ToolSpec = {
      name: "invoice",
      description: "",
      inputSchema: { type: "object" },
      validate: Object.assign(() => true, { errors: null }),
      coercions: {},
      hints: {},
      references,
      rewrites,
    };
    const sink = { append() {}, flush: () => Promise.resolve(), close: () => Promise.resolve() };
    const resolvers = { customer: () => [{ id: "cus_1", label: "Acme" }], sku: () => [{ id: "sku_1", label: "Widget" }] };
    return { guard: createGuard(spec, (args) => received.push(args), { ledger: sink, resolvers }), rebuilt, received };
  }

  it("is what the guard rebuilds a field's object with, when the spec carries it", async () => {
    const { guard, rebuilt, received } = guarded({ "/customer_ref": { kind: "customer", target: "customer_id" } });
    const outcome = await guard.call('{"amount":5,"customer_ref":"Acme"}', { turn: "t" });
    expect(outcome.status).toBe("ok");
    expect(received).toEqual([{ amount: 5, customer_id: "cus_1" }]);
    expect(received[0]).toBe(rebuilt[0]);
    const checked = guard.check('{"customer_ref":"Acme","amount":6}', { turn: "u" });
    expect(checked.ok && checked.args).toBe(rebuilt[1]);
  });

  it("serves the general way too: fields in arrays, and several fields", async () => {
    const { guard, rebuilt, received } = guarded({
      "/customer_ref": { kind: "customer", target: "customer_id" },
      "/items/*/sku_ref": { kind: "sku", target: "sku_id" },
    });
    const outcome = await guard.call('{"customer_ref":"Acme","items":[{"sku_ref":"Widget","n":1},{"n":2,"sku_ref":"Widget"}]}', { turn: "t" });
    expect(outcome.status).toBe("ok");
    expect(received).toEqual([
      {
        customer_id: "cus_1",
        items: [
          { n: 1, sku_id: "sku_1" },
          { n: 2, sku_id: "sku_1" },
        ],
      },
    ]);
    // Each object rebuilt is one the arguments hold: the two items and the root.
    const args = received[0] as { items: unknown[] };
    expect(rebuilt).toHaveLength(3);
    expect(rebuilt).toContain(args);
    expect(rebuilt).toContain(args.items[0]);
    expect(rebuilt).toContain(args.items[1]);
  });
});
