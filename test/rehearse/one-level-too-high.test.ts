// "field one level too high" moves a nested field into the object above. Where that object
// already holds the name (Prowlarr's `PUT /api/v1/notification/{id}`: a path `id` beside a body
// with an `id` of its own), the move would overwrite the value there: the call meant can no
// longer be told from the one sent, so no case is made (docs/corpus.md, round 16).
import { describe, expect, it } from "vitest";
import { mistakesOf } from "../../generator/rehearse/mistakes/classes.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";

const schema: Schema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "body"],
  properties: {
    id: { type: "string" },
    body: { type: "object", additionalProperties: false, properties: { id: { type: "integer" }, label: { type: "string" } } },
  },
};

const moved = (valid: unknown): string[] =>
  mistakesOf("t", "t.json", schema, valid, seeded(1))
    .filter((entry) => entry.mistake === "field one level too high")
    .map((entry) => JSON.stringify(entry.expect));

describe("field one level too high", () => {
  it("moves a field whose name the object above does not hold", () => {
    expect(moved({ id: "7", body: { id: 7, label: "x" } })).toEqual([JSON.stringify({ op: "move", from: "/label", to: "/body/label" })]);
  });

  it("makes no case that would overwrite the value above", () => {
    expect(moved({ id: "7", body: { id: 7 } })).toEqual([]);
  });
});
