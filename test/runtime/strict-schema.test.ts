// OpenAI strict mode: which schemas have a strict variant, what it looks like, which nulls it
// implies, and what it leaves to the guard; and the guard step that drops exactly those nulls.
import { describe, expect, it } from "vitest";
import type { InputSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { chooseStrictness } from "../../templates/runtime/providers/strict-choice.ts";
import { strictVariant } from "../../templates/runtime/providers/strict-schema.ts";
import { dropAbsentNulls, removeAbsent } from "../../templates/runtime/coerce/absent-nulls.ts";

const object = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}): InputSchema =>
  ({ type: "object", properties, required, additionalProperties: false, ...extra }) as InputSchema;

describe("strictVariant", () => {
  it("makes optional fields required and nullable, and lists where their nulls may stand", () => {
    const variant = strictVariant(
      object(
        {
          id: { type: "string" },
          note: { type: "string", description: "Free text." },
          level: { type: "string", enum: ["a", "b"] },
          items: { type: "array", items: object({ sku: { type: "string" }, qty: { type: "integer" } }, ["sku"]) },
          either: { anyOf: [{ type: "string" }, { type: "integer" }] },
        },
        ["id", "items"],
      ),
    );
    expect(variant.blocking).toEqual([]);
    expect(variant.schema).toEqual({
      type: "object",
      properties: {
        id: { type: "string" },
        note: { type: ["string", "null"], description: "Free text. Send null to leave it out." },
        level: { type: ["string", "null"], enum: ["a", "b", null], description: "Send null to leave it out." },
        items: {
          type: "array",
          items: {
            type: "object",
            properties: { sku: { type: "string" }, qty: { type: ["integer", "null"], description: "Send null to leave it out." } },
            required: ["sku", "qty"],
            additionalProperties: false,
          },
        },
        either: { description: "Send null to leave it out.", anyOf: [{ anyOf: [{ type: "string" }, { type: "integer" }] }, { type: "null" }] },
      },
      required: ["id", "note", "level", "items", "either"],
      additionalProperties: false,
    });
    expect(variant.absentNulls).toEqual(["/note", "/level", "/items/*/qty", "/either"]);
  });

  it("keeps a null the schema already accepts as a value, not an absence", () => {
    const variant = strictVariant(object({ note: { type: ["string", "null"] } }));
    expect(variant.schema?.required).toEqual(["note"]);
    expect(variant.absentNulls).toEqual([]);
  });

  it("expands local $refs, and leaves out assertions strict mode lacks, saying why", () => {
    const variant = strictVariant(
      object({ name: { $ref: "#/$defs/name" }, tags: { type: "array", items: { type: "string" }, uniqueItems: true } }, ["name", "tags"], {
        $defs: { name: { type: "string", minLength: 1, format: "date" } },
        "x-vendor": true,
      }),
    );
    expect(variant.schema).toEqual({
      type: "object",
      properties: { name: { type: "string", format: "date" }, tags: { type: "array", items: { type: "string" } } },
      required: ["name", "tags"],
      additionalProperties: false,
    });
    expect(variant.loosened.map((issue) => [issue.at, issue.keyword])).toEqual([
      ["#/$defs/name/minLength", "minLength"],
      ["#/properties/tags/uniqueItems", "uniqueItems"],
    ]);
  });

  it.each([
    ["a map", object({ labels: { type: "object", additionalProperties: { type: "string" } } }, ["labels"]), "additionalProperties"],
    ["a recursive $ref", object({ node: { $ref: "#/$defs/node" } }, ["node"], { $defs: { node: object({ next: { $ref: "#/$defs/node" } }) } }), "$ref"],
    ["allOf", object({ a: { allOf: [{ type: "string" }] } }, ["a"]), "allOf"],
    ["an array without items", object({ a: { type: "array" } }, ["a"]), "items"],
    ["a schema that accepts anything", object({ a: { description: "anything" } }, ["a"]), "type"],
    ["an unknown keyword", object({ a: { type: "string", contentSchema: {} } }, ["a"]), "contentSchema"],
  ])("cannot make %s strict", (_name, schema, keyword) => {
    const variant = strictVariant(schema);
    expect(variant.schema).toBeUndefined();
    expect(variant.blocking.map((issue) => issue.keyword)).toContain(keyword);
  });

  it("chooseStrictness: false keeps the schema, auto falls back, true throws with why", () => {
    const map = { name: "m", inputSchema: object({ labels: { type: "object", additionalProperties: { type: "string" } } }, ["labels"]) };
    expect(chooseStrictness(map, false)).toEqual({ parameters: map.inputSchema, strict: false, absentNulls: undefined });
    expect(chooseStrictness(map, "auto").strict).toBe(false);
    expect(() => chooseStrictness(map, true)).toThrow(/m cannot be sent with strict: true \(#\/properties\/labels\/additionalProperties: a map/);
  });
});

describe("dropAbsentNulls", () => {
  it("drops nulls at the listed places only, and says where", () => {
    const value = { note: null, keep: null, items: [{ qty: null }, { qty: 2 }, null], nested: { note: null } };
    expect(dropAbsentNulls(value, ["/note", "/items/*/qty", "/missing"])).toEqual(["/note", "/items/0/qty"]);
    expect(value).toEqual({ keep: null, items: [{}, { qty: 2 }, null], nested: { note: null } });
  });

  it("removes the same members again from a fresh parse, for the ledger's arguments", () => {
    const value = JSON.parse('{"a": null, "b": [{"c": null}]}');
    removeAbsent(value, ["/a", "/b/0/c"]);
    expect(value).toEqual({ b: [{}] });
  });

  it("never drops what is not null, nor walks into strings", () => {
    const value = { note: "null", list: "abc" };
    expect(dropAbsentNulls(value, ["/note", "/list/*/x"])).toEqual([]);
    expect(value).toEqual({ note: "null", list: "abc" });
  });
});
