// "required field missing" leaves a required field out. A union's value is a leaf, and so is the
// branch it selects, at the same path; the branch's one listed value is not the field's only one
// (changedetection.io's `from_timestamp`: `oneOf: [{type: integer}, {type: string, enum:
// ["previous"]}]`), so the case is the union's, asking, never "send "previous"" (docs/corpus.md,
// round 18).
import { describe, expect, it } from "vitest";
import { mistakesOf } from "../../generator/rehearse/mistakes/classes.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";

const schema: Schema = {
  type: "object",
  required: ["from_timestamp"],
  properties: { from_timestamp: { oneOf: [{ type: "integer" }, { type: "string", enum: ["previous"] }] } },
};

describe("required field missing, for a union", () => {
  it("asks, whichever branch the valid call's value selects", () => {
    const expected = mistakesOf("t", "t.json", schema, { from_timestamp: "previous" }, seeded(1))
      .filter((entry) => entry.mistake === "required field missing")
      .map((entry) => JSON.stringify(entry.expect));
    expect(expected).toEqual([JSON.stringify({ op: "ask", path: "/from_timestamp" })]);
  });
});
