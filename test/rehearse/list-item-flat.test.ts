// "list item's fields sent flat" moves a list of one object's fields beside the list. Where
// another list or object beside it takes the same fields (GrowthBook's ramp schedule:
// `startActions` and `endActions`, both lists of `{targetType, targetId, patch}`), the call sent
// could mean either, so no case is made (docs/corpus.md, round 18).
import { describe, expect, it } from "vitest";
import { mistakesOf } from "../../generator/rehearse/mistakes/classes.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";

const action = { type: "object", additionalProperties: false, properties: { targetId: { type: "string" }, enabled: { type: "boolean" } } };

const body = (withEnd: boolean): Schema => ({
  type: "object",
  additionalProperties: false,
  properties: {
    name: { type: "string" },
    startActions: { type: "array", items: action },
    ...(withEnd ? { endActions: { type: "array", items: { $ref: "#/$defs/action" } } } : {}),
  },
  $defs: { action },
});

const flat = (schema: Schema): string[] =>
  mistakesOf("t", "t.json", schema, { name: "ramp", startActions: [{ targetId: "r1", enabled: true }] }, seeded(1))
    .filter((entry) => entry.mistake === "list item's fields sent flat")
    .map((entry) => JSON.stringify(entry.expect));

describe("list item's fields sent flat", () => {
  it("moves the fields of a list only it takes", () => {
    expect(flat(body(false))).toEqual([JSON.stringify({ op: "move", from: "/targetId", to: "/startActions/0/targetId" })]);
  });

  it("makes no case where another list beside it (through a $ref) takes the same fields", () => {
    expect(flat(body(true))).toEqual([]);
  });

  // Prefect's automation: three lists of one action union. The valid call's `actions` holds an
  // item without `type`, so `type` sent flat could go there too: no case.
  it("makes no case where another list of a union item holds none of the fields", () => {
    const union = {
      anyOf: [
        { type: "object", properties: { type: { const: "a" } } },
        { type: "object", properties: { type: { const: "b" } } },
      ],
    };
    const schema: Schema = {
      type: "object",
      additionalProperties: false,
      properties: { name: { type: "string" }, actions: { type: "array", items: union }, on_trigger: { type: "array", items: union } },
    };
    const cases = mistakesOf("t", "t.json", schema, { name: "n", actions: [{}], on_trigger: [{ type: "a" }] }, seeded(1));
    expect(cases.filter((entry) => entry.mistake === "list item's fields sent flat")).toEqual([]);
  });

  // Kavita's chapter: lists of one person item, some that may be null. Every other list holds its
  // person already, so only the list left out takes the fields: the case is made.
  it("moves into the list left out where every other list of the item holds them", () => {
    const person = { type: "object", additionalProperties: false, properties: { name: { type: "string" }, role: { type: "integer" } } };
    const nullable = { anyOf: [{ type: "array", items: { $ref: "#/$defs/person" } }, { type: "null" }] };
    const schema: Schema = {
      type: "object",
      additionalProperties: false,
      properties: { writers: nullable, publishers: { type: "array", items: { $ref: "#/$defs/person" } }, inkers: nullable },
      $defs: { person },
    };
    const valid = { writers: [{ name: "a", role: 1 }], publishers: [{ name: "b", role: 2 }], inkers: [{ name: "c" }] };
    const made = mistakesOf("t", "t.json", schema, valid, seeded(1)).filter((entry) => entry.mistake === "list item's fields sent flat");
    expect(made.map((entry) => JSON.stringify(entry.expect))).toEqual([
      JSON.stringify({ op: "move", from: "/name", to: "/writers/0/name" }),
      JSON.stringify({ op: "move", from: "/name", to: "/publishers/0/name" }),
    ]);
  });
});
