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
});
