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

// lithic-com/lithic-openapi 225e070 (Apache-2.0), `lithic-openapi.yml`: the auth rule request
// has fields of its own beside an `anyOf` of three kinds of rule, each with its own lists.
const tokens = { type: "array", items: { type: "string", format: "uuid" } };
const patchAuthRule = tool("patchAuthRuleByToken", {
  type: "object",
  additionalProperties: false,
  required: ["auth_rule_token", "body"],
  properties: {
    auth_rule_token: { type: "string", format: "uuid" },
    body: {
      type: "object",
      properties: { state: { type: "string", const: "INACTIVE" }, name: { type: "string" } },
      anyOf: [
        { type: "object", properties: { account_tokens: tokens, business_account_tokens: tokens } },
        { type: "object", properties: { card_tokens: tokens } },
        { type: "object", properties: { program_level: { type: "boolean" }, excluded_card_tokens: tokens } },
      ],
    },
  },
});

describe("Lithic's body with fields of its own beside a union", () => {
  it("a union member's field sent at the top level is moved into the body", async () => {
    const id = "123e4567-e89b-12d3-a456-426614174000";
    const { errors, repaired, after } = await roundTrip(patchAuthRule, { auth_rule_token: id, card_tokens: [id] });
    expect(errors.find((error) => error.path === "/card_tokens")?.message).toBe(
      'unknown field "card_tokens" at this level; it belongs at /body/card_tokens: move it to /body/card_tokens',
    );
    expect(repaired).toEqual({ auth_rule_token: id, body: { card_tokens: [id] } });
    expect(after).toBeUndefined();
  });

  it("as is the body's own field", async () => {
    const { repaired, after } = await roundTrip(patchAuthRule, { auth_rule_token: "123e4567-e89b-12d3-a456-426614174000", name: "r" });
    expect(repaired).toEqual({ auth_rule_token: "123e4567-e89b-12d3-a456-426614174000", body: { name: "r" } });
    expect(after).toBeUndefined();
  });
});
