// Each class of change on a pair of schemas: what the comparison says for tool teams and for
// models, and where. The schemas are read as the reader leaves them (local `$ref`s into `$defs`).
import { describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { worstOf, type Change, type Impact } from "../../generator/diff/change.ts";
import { compareTool, compareTools } from "../../generator/diff/compare-tools.ts";

function tool(inputSchema: Record<string, unknown>, extra: Partial<ToolDescription> = {}): ToolDescription {
  return {
    name: "create_invoice",
    description: "Create a draft invoice.",
    inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", ...inputSchema },
    dialect: "2020-12",
    references: {},
    source: { file: "create-invoice.json", pointer: "" },
    ...extra,
  };
}

const object = (properties: Record<string, unknown>, required: string[] = [], more: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required,
  ...more,
});

function classify(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  extraBefore: Partial<ToolDescription> = {},
  extraAfter: Partial<ToolDescription> = {},
) {
  const changes = compareTool(tool(before, extraBefore), tool(after, extraAfter));
  return { toolTeams: worstOf(changes, "toolTeams"), models: worstOf(changes, "models"), changes };
}

type Row = [string, Record<string, unknown>, Record<string, unknown>, Impact, Impact];

const amount = { type: "number", minimum: 0 };
const currency = { type: "string", enum: ["USD", "EUR", "GBP"] };

// [what, old schema, new schema, tool teams, models]
const breakingForModels: Row[] = [
  ["a new required field", object({ amount }, ["amount"]), object({ amount, currency }, ["amount", "currency"]), "none", "breaking"],
  ["an enum value removed", object({ currency }), object({ currency: { type: "string", enum: ["USD", "EUR"] } }), "possibly", "breaking"],
  ["a tighter minimum", object({ amount }), object({ amount: { type: "number", minimum: 1 } }), "none", "breaking"],
  ["a new maxLength", object({ note: { type: "string" } }), object({ note: { type: "string", maxLength: 10 } }), "none", "breaking"],
  ["a tighter maxLength", object({ note: { type: "string", maxLength: 20 } }), object({ note: { type: "string", maxLength: 10 } }), "none", "breaking"],
  ["a new pattern", object({ note: { type: "string" } }), object({ note: { type: "string", pattern: "^[a-z]+$" } }), "none", "breaking"],
  [
    "a changed pattern (undecidable)",
    object({ note: { type: "string", pattern: "^[a-z]+$" } }),
    object({ note: { type: "string", pattern: "^[a-c]+$" } }),
    "none",
    "possibly",
  ],
  ["additionalProperties closed", object({ amount }), object({ amount }, [], { additionalProperties: false }), "possibly", "breaking"],
  ["a new asserted format", object({ email: { type: "string" } }), object({ email: { type: "string", format: "email" } }), "none", "breaking"],
  [
    "a tighter minItems",
    object({ tags: { type: "array", items: { type: "string" } } }),
    object({ tags: { type: "array", items: { type: "string" }, minItems: 1 } }),
    "none",
    "breaking",
  ],
];

const breakingForToolTeams: Row[] = [
  ["a field removed", object({ amount, note: { type: "string" } }), object({ amount }), "breaking", "none"],
  [
    "a field removed from a closed object",
    object({ amount, note: { type: "string" } }, [], { additionalProperties: false }),
    object({ amount }, [], { additionalProperties: false }),
    "breaking",
    "breaking",
  ],
  [
    "a field removed where unlisted fields must match a schema",
    object({ amount, note: { type: "string" } }, [], { additionalProperties: { type: "number" } }),
    object({ amount }, [], { additionalProperties: { type: "number" } }),
    "breaking",
    "possibly",
  ],
  ["a field renamed", object({ note: { type: "string" } }, ["note"]), object({ memo: { type: "string" } }, ["memo"]), "breaking", "breaking"],
  ["a type narrowed", object({ id: { type: ["string", "integer"] } }), object({ id: { type: "string" } }), "breaking", "breaking"],
  ["a type widened", object({ id: { type: "string" } }), object({ id: { type: ["string", "null"] } }), "breaking", "none"],
  ["a type changed", object({ amount }), object({ amount: { type: "string" } }), "breaking", "breaking"],
  ["required became optional", object({ amount }, ["amount"]), object({ amount }), "breaking", "none"],
  [
    "a new union branch",
    object({ id: { type: "string" } }),
    object({ id: { anyOf: [{ type: "string" }, { type: "object", properties: { login: { type: "string" } } }] } }),
    "breaking",
    "none",
  ],
];

const neither: Row[] = [
  ["a description", object({ amount }), object({ amount: { ...amount, description: "In major units." } }), "none", "none"],
  ["a title and examples", object({ amount }), object({ amount: { ...amount, title: "Amount", examples: [12] } }), "none", "none"],
  ["an added optional field", object({ amount }, ["amount"]), object({ amount, note: { type: "string" } }, ["amount"]), "none", "none"],
  ["a looser maximum", object({ n: { type: "integer", maximum: 10 } }), object({ n: { type: "integer", maximum: 100 } }), "none", "none"],
  ["a pattern removed", object({ note: { type: "string", pattern: "^a" } }), object({ note: { type: "string" } }), "none", "none"],
  ["additionalProperties opened", object({ amount }, [], { additionalProperties: false }), object({ amount }), "none", "none"],
];

describe("classification on pairs of schemas", () => {
  for (const [group, rows] of [
    ["breaking for models", breakingForModels],
    ["breaking for tool teams", breakingForToolTeams],
    ["neither", neither],
  ] as const) {
    describe(group, () => {
      for (const [what, before, after, toolTeams, models] of rows) {
        it(what, () => {
          const result = classify(before, after);
          expect(result.changes.length).toBeGreaterThan(0);
          expect({ toolTeams: result.toolTeams, models: result.models }).toEqual({ toolTeams, models });
        });
      }
    });
  }

  it("a widened enum is said as what the model may now send; the implementation is warned", () => {
    const { changes, models, toolTeams } = classify(object({ currency }), object({ currency: { type: "string", enum: ["USD", "EUR", "GBP", "JPY"] } }));
    expect(models).toBe("none");
    expect(toolTeams).toBe("possibly");
    expect(changes[0]).toMatchObject({ path: "/currency", schemaPointer: "/properties/currency/enum", keyword: "enum" });
    expect(changes[0]?.message).toContain('the model may now send "JPY"');
  });

  it("int64's safe-integer bounds (which the parser enforces anyway) are no change", () => {
    expect(
      classify(object({ id: { type: "integer" } }), object({ id: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 } })).changes,
    ).toEqual([]);
  });

  it("an unchanged schema has no changes", () => {
    const schema = object({ amount, currency }, ["amount"], { $defs: { x: { type: "string" } } });
    expect(classify(schema, structuredClone(schema)).changes).toEqual([]);
  });
});

describe("$ref'd definitions, nesting, arrays and unions", () => {
  const lineItem = (quantity: Record<string, unknown>) => ({
    type: "object",
    properties: { items: { type: "array", items: { $ref: "#/$defs/line_item" } } },
    $defs: { line_item: { type: "object", properties: { quantity, sku: { type: "string" } }, required: ["sku"] } },
  });

  it("a change inside a definition is found through the $ref, with the array item path", () => {
    const { changes, models } = classify(lineItem({ type: "integer", minimum: 1 }), lineItem({ type: "integer", minimum: 2 }));
    expect(models).toBe("breaking");
    expect(changes).toEqual([expect.objectContaining({ path: "/items/*/quantity", schemaPointer: "/$defs/line_item/properties/quantity/minimum" })]);
  });

  it("a definition moved to another name with the same content is no change", () => {
    const original = lineItem({ type: "integer", minimum: 1 });
    const moved = { ...original, properties: { items: { type: "array", items: { $ref: "#/$defs/item" } } }, $defs: { item: original.$defs.line_item } };
    expect(classify(lineItem({ type: "integer", minimum: 1 }), moved).changes).toEqual([]);
  });

  it("equal $ref text pointing at changed definitions is still compared", () => {
    const before = { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } };
    const after = { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "integer" } } };
    expect(classify(before, after)).toMatchObject({ toolTeams: "breaking", models: "breaking" });
  });

  it("a recursive definition ends", () => {
    const tree = (leaf: string) => ({
      type: "object",
      properties: { root: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { name: { type: leaf }, children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
    });
    const { changes } = classify(tree("string"), tree("integer"));
    expect(changes.map((change) => change.path)).toEqual(["/root/name"]);
  });

  it("union branches are paired by the definition they name, then compared", () => {
    const union = (max: number) => ({
      type: "object",
      properties: { payment: { oneOf: [{ $ref: "#/$defs/card" }, { $ref: "#/$defs/transfer" }] } },
      $defs: {
        card: { type: "object", properties: { kind: { const: "card" }, number: { type: "string", maxLength: max } }, required: ["kind"] },
        transfer: { type: "object", properties: { kind: { const: "transfer" }, iban: { type: "string" } }, required: ["kind"] },
      },
    });
    const { changes } = classify(union(19), union(16));
    expect(changes).toEqual([expect.objectContaining({ path: "/payment/number", models: "breaking", keyword: "maxLength" })]);
  });

  it("trying the old shape against each new branch records nothing of those trials", () => {
    const before = object({ x: { type: "object", properties: { a: { type: "string" } } } });
    const after = object({ x: { anyOf: [{ type: "object", properties: { a: { type: "integer" } } }, { type: "null" }] } });
    const { changes } = classify(before, after);
    expect(changes.map((change) => [change.path, change.keyword])).toEqual([["/x", "anyOf"]]);
    expect(changes[0]?.message).toMatch(/none of which is the old one/);
  });

  it("alternatives added beside an object's own keywords are possibly breaking for both", () => {
    const before = object({ id: { type: "integer" }, slug: { type: "string" } });
    const after = object({ id: { type: "integer" }, slug: { type: "string" } }, [], { oneOf: [{ required: ["id"] }, { required: ["slug"] }] });
    const result = classify(before, after);
    expect({ toolTeams: result.toolTeams, models: result.models }).toEqual({ toolTeams: "possibly", models: "possibly" });
    expect(result.changes[0]?.message).toMatch(/must now also match exactly one of 2 alternatives/);
  });

  it("a union branch removed is possibly breaking, never neither", () => {
    const before = object({ id: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] } });
    const after = object({ id: { anyOf: [{ type: "string" }, { type: "integer" }] } });
    expect(classify(before, after)).toMatchObject({ models: "possibly", toolTeams: "possibly" });
  });

  it("a conditional change is possibly breaking for models", () => {
    const before = object({ a: { type: "string" } }, [], { if: { properties: { a: { const: "x" } } }, then: { required: ["b"] } });
    const after = object({ a: { type: "string" } }, [], { if: { properties: { a: { const: "y" } } }, then: { required: ["b"] } });
    expect(classify(before, after).models).toBe("possibly");
  });
});

describe("tools and references", () => {
  const base = object({ customer_ref: { type: "string" } }, ["customer_ref"]);
  const ref = { "/customer_ref": { kind: "customer", target: "customer_id" } };

  it("a new reference kind needs a resolver: breaking for tool teams only", () => {
    const { toolTeams, models, changes } = classify(base, base, {}, { references: ref });
    expect({ toolTeams, models }).toEqual({ toolTeams: "breaking", models: "none" });
    expect(changes[0]?.message).toContain("needs a resolver for customer");
  });

  it("a removed tool breaks both; an added one breaks neither", () => {
    const diffs = compareTools(
      [tool(base)],
      [tool(base, { name: "list_invoices", source: { file: "list-invoices.json", pointer: "" }, inputSchema: { type: "object" } })],
    );
    expect(diffs.map((diff) => [diff.name, diff.status, diff.toolTeams, diff.models])).toEqual([
      ["create_invoice", "removed", "breaking", "breaking"],
      ["list_invoices", "added", "none", "none"],
    ]);
  });

  it("a renamed tool (same file) breaks both and is still compared", () => {
    const diffs = compareTools(
      [tool(base)],
      [tool(object({ customer_ref: { type: "string", description: "Name or email." } }, ["customer_ref"]), { name: "draft_invoice" })],
    );
    expect(diffs).toHaveLength(1);
    expect(diffs[0]).toMatchObject({ name: "draft_invoice", previousName: "create_invoice", status: "renamed", toolTeams: "breaking", models: "breaking" });
    expect(diffs[0]?.changes.map((change: Change) => change.keyword)).toEqual(["name", "description"]);
  });

  it("an OpenAPI operation whose operationId changed is a rename, found by method and path", () => {
    const http = { method: "POST", path: "/invoices" } as ToolDescription["http"];
    const diffs = compareTools(
      [tool(base, { http, source: { file: "api.json", pointer: "/paths/~1invoices/post" } })],
      [tool(base, { name: "invoices_create", http, source: { file: "api.json", pointer: "/paths/~1invoices/post" } })],
    );
    expect(diffs[0]).toMatchObject({ status: "renamed", previousName: "create_invoice" });
  });
});

describe("union branches and required fields, without over-caution (issue 30)", () => {
  const kind = (name: string, more: Record<string, unknown> = {}) => object({ kind: { const: name }, ...more }, ["kind"]);
  const union = (...branches: unknown[]) => object({ rule: { oneOf: branches } });
  const newBranch = (result: ReturnType<typeof classify>) => result.changes.find((change) => change.message.includes("new union branch"));

  it("a new oneOf branch whose discriminating const differs from every other breaks no call", () => {
    const result = classify(union(kind("a"), kind("b")), union(kind("a"), kind("b"), kind("c", { n: { type: "integer" } })));
    expect(newBranch(result)).toMatchObject({ toolTeams: "breaking", models: "none" });
    expect(newBranch(result)?.message).toContain("cannot overlap the other branches");
  });

  it("a new oneOf branch of another type, or with enums apart, breaks no call", () => {
    const byType = classify(
      object({ v: { oneOf: [{ type: "string" }, { type: "integer" }] } }),
      object({ v: { oneOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }] } }),
    );
    expect(newBranch(byType)).toMatchObject({ models: "none" });
    const byEnum = classify(object({ v: { oneOf: [{ enum: ["a", "b"] }] } }), object({ v: { oneOf: [{ enum: ["a", "b"] }, { enum: ["c"] }] } }));
    expect(newBranch(byEnum)).toMatchObject({ models: "none" });
  });

  it("a new oneOf branch that may overlap another stays possibly breaking", () => {
    // No discriminator: an object with kind "a" matches both.
    const loose = classify(union(kind("a"), kind("b")), union(kind("a"), kind("b"), object({ n: { type: "integer" } })));
    expect(newBranch(loose)).toMatchObject({ models: "possibly" });
    // integer and number meet; "a" is in both enums.
    const numbers = classify(object({ v: { oneOf: [{ type: "integer" }] } }), object({ v: { oneOf: [{ type: "integer" }, { type: "number" }] } }));
    expect(newBranch(numbers)).toMatchObject({ models: "possibly" });
    const enums = classify(object({ v: { oneOf: [{ enum: ["a", "b"] }] } }), object({ v: { oneOf: [{ enum: ["a", "b"] }, { enum: ["a", "c"] }] } }));
    expect(newBranch(enums)).toMatchObject({ models: "possibly" });
  });

  it("a required field moved into a new oneOf is not reported as just optional", () => {
    const props = { id: { type: "integer" }, name: { type: "string" } };
    const some = classify(object(props, ["id"]), object(props, [], { oneOf: [{ required: ["id"] }, { required: ["name"] }] }));
    const optional = some.changes.find((change) => change.path === "/id" && change.keyword === "required");
    expect(optional?.message).toContain("1 of the 2 branches of its oneOf require it (0)");
    expect(optional?.message).not.toContain("is now optional");
    const every = classify(object(props, ["id"]), object(props, [], { oneOf: [{ required: ["id"] }, { required: ["id", "name"] }] }));
    expect(every.changes.find((change) => change.path === "/id" && change.keyword === "required")).toMatchObject({ toolTeams: "possibly", models: "none" });
    // With no union, the plain message stays.
    const plain = classify(object(props, ["id"]), object(props));
    expect(plain.changes.find((change) => change.path === "/id")?.message).toContain("id is now optional");
  });
});
