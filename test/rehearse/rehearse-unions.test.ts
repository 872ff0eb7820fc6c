// `toolguard rehearse` makes the union-tag mistakes on a call holding each member of every tagged
// union (generator/rehearse/mistakes/union-calls.ts), not only on the one valid call, whose
// unions take their first member and whose optional fields may be left out.
import { describe, expect, it } from "vitest";
import { rehearseTool } from "../../generator/rehearse/rehearse.ts";

const shape = (kind: string, field: string) => ({
  type: "object",
  additionalProperties: false,
  required: ["kind", field],
  properties: { kind: { type: "string", const: kind }, [field]: { type: "number" } },
});

describe("rehearse and tagged unions", () => {
  it("rehearses the tag of every member of a union in an optional field", async () => {
    const report = await rehearseTool(
      {
        name: "draw",
        description: "",
        dialect: "2020-12",
        references: {},
        source: { file: "draw.json", pointer: "" },
        inputSchema: {
          type: "object",
          additionalProperties: false,
          required: ["title"],
          properties: { title: { type: "string" }, shape: { anyOf: [shape("circle", "radius"), shape("square", "side"), shape("star", "points")] } },
        },
      },
      { seed: 1, limit: 200 },
    );
    const tags = report.cases
      .filter((entry) => entry.mistake.startsWith("union member with"))
      .map((entry) => `${entry.mistake}: ${JSON.stringify(entry.expected)}`);
    for (const kind of ["circle", "square", "star"]) {
      expect(tags).toContain(`union member with its tag left out: {"op":"set","path":"/shape/kind","value":"${kind}"}`);
      expect(tags).toContain(`union member with a wrong tag: {"op":"set","path":"/shape/kind","value":"${kind}"}`);
    }
  });
});
