// The mistake generator goes into a union where the value alone decides the branch (classes.ts,
// `unionBranch`): pydantic's `Optional[...]`, zod's `.nullable()` with rules of its own, an
// untagged union of objects whose keys single out one member. Where the value fits two branches,
// the mistake could be read against either, and nothing inside is made.
import { describe, expect, it } from "vitest";
import { mistakesOf } from "../../generator/rehearse/mistakes/classes.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";

const pointsOf = (schema: Schema, valid: unknown, mistake: string): string[] =>
  mistakesOf("t", "t.json", schema, valid, seeded(1))
    .filter((entry) => entry.mistake === mistake)
    .map((entry) => JSON.stringify(entry.expect));

describe("mistakes inside unions", () => {
  it("a nullable integer with rules of its own gets the number classes", () => {
    const schema: Schema = {
      type: "object",
      additionalProperties: false,
      properties: { limit: { anyOf: [{ type: "integer", exclusiveMinimum: 0, maximum: 20 }, { type: "null" }] } },
    };
    expect(pointsOf(schema, { limit: 8 }, "number with a unit or sign")).toEqual([JSON.stringify({ op: "set", path: "/limit", value: 8 })]);
  });

  it("the member of an untagged union of objects that the keys single out gets the field classes", () => {
    const schema: Schema = {
      type: "object",
      additionalProperties: false,
      required: ["target"],
      properties: {
        target: {
          oneOf: [
            { type: "object", additionalProperties: false, required: ["repository"], properties: { repository: { type: "string" } } },
            { type: "object", additionalProperties: false, required: ["organization"], properties: { organization: { type: "string" } } },
          ],
        },
      },
    };
    const renames = pointsOf(schema, { target: { repository: "core" } }, "field name misspelt");
    expect(renames.filter((expect) => expect.includes('"to":"repository"'))).toHaveLength(1);
  });

  it("a value two branches take is not entered", () => {
    const schema: Schema = {
      type: "object",
      additionalProperties: false,
      properties: {
        size: {
          anyOf: [
            { type: "integer", maximum: 10 },
            { type: "integer", minimum: 100 },
          ],
        },
      },
    };
    expect(pointsOf(schema, { size: 5 }, "number with a unit or sign")).toEqual([]);
  });
});
