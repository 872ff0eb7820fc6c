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

// The same file, `putFeatureRevisionPrerequisites`: the path parameter `id` and the list item's
// `id` are equally near the body, so the move table left `id` out and, sent flat beside the
// body's own fields with the list left out, it heard "remove it" (its value lost) while its
// fellow `condition` was moved into the item.
const prerequisites = tool("putFeatureRevisionPrerequisites", {
  type: "object",
  additionalProperties: false,
  required: ["id", "body"],
  properties: {
    id: { type: "string" },
    body: {
      type: "object",
      additionalProperties: false,
      required: ["prerequisites"],
      properties: {
        prerequisites: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["id", "condition"],
            properties: { id: { type: "string" }, condition: { type: "string" } },
          },
        },
        revisionComment: { type: "string" },
      },
    },
  },
});

describe("a list item's field whose name the path parameter also has (GrowthBook's prerequisites)", () => {
  it("with the path's id sent, the flat id goes into the item", async () => {
    const sent = { id: "feat-1", body: { revisionComment: "gate", id: "flag-2", condition: "{}" } };
    const { errors, repaired, after } = await roundTrip(prerequisites, sent);
    expect(errors.find((error) => error.path === "/body/id")?.message).toBe(
      'unknown field "id" at this level; it belongs at /body/prerequisites/0/id: move it to /body/prerequisites/0/id',
    );
    expect(repaired).toEqual({ id: "feat-1", body: { revisionComment: "gate", prerequisites: [{ id: "flag-2", condition: "{}" }] } });
    expect(after).toBeUndefined();
  });

  it("with both places free, it names both and is not removed", async () => {
    const { errors, repaired } = await roundTrip(prerequisites, { body: { id: "flag-2", condition: "{}" } });
    const message = errors.find((error) => error.path === "/body/id")?.message;
    expect(message).toBe('unknown field "id" at this level; it belongs at /body/prerequisites/0/id or at /id: move it to the place you meant');
    // The value is kept (here the missing path parameter's own error asks for it there).
    expect(JSON.stringify(repaired)).toContain('"flag-2"');
  });
});
