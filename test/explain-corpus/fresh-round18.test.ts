// Fresh inputs, round 18 (probe18): the classes round 17 left on GrowthBook, and the shapes of
// round 18's fresh inputs that none of the messages was written against (docs/corpus.md,
// round 18). Each schema is cut from the input named, to the fields that matter.
import { afterAll, describe, expect, it } from "vitest";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// growthbook/growthbook 8f1db44 (MIT), `packages/back-end/generated/spec.yaml`, `createTeam`:
// zod-to-OpenAPI writes the optional `managedBy` object as a union of that object alone. The
// union rule read no wrapper from it, so a plain text heard "it matches none of the allowed
// shapes (accepted types: object)" and nothing to send; `{type: object}` itself heard the wrapper.
const createTeam = tool("createTeam", {
  type: "object",
  required: ["body"],
  properties: {
    body: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: { type: "string" },
        managedBy: {
          anyOf: [
            {
              type: "object",
              additionalProperties: false,
              required: ["type", "resourceId"],
              properties: { type: { type: "string", const: "vercel" }, resourceId: { type: "string" } },
            },
          ],
        },
      },
    },
  },
});

describe("a union of one object (GrowthBook's managedBy)", () => {
  it("a plain text hears the wrapper it goes in", async () => {
    const { errors, repaired, after } = await roundTrip(createTeam, { body: { name: "ops", managedBy: "prj_123" } });
    expect(errors.map((error) => error.message)).toEqual([
      'got string "prj_123"; it matches none of the allowed shapes (accepted types: object): the text goes in "resourceId": send {"type":"vercel","resourceId":"prj_123"}',
    ]);
    expect(repaired).toEqual({ body: { name: "ops", managedBy: { type: "vercel", resourceId: "prj_123" } } });
    expect(after).toBeUndefined();
  });
});
