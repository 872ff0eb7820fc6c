// Fresh inputs, round 15 (probe14): shapes found by `toolguard rehearse` on vendors' own
// descriptions that none of the messages was written against (docs/corpus.md, round 15).
import { afterAll, describe, expect, it } from "vitest";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// listmonk's `per_page` (knadh/listmonk docs/swagger/collections.yaml): "an integer for a page
// size or 'all'". A number written with a unit or sign, or Python's None, is a string, so the
// string branch was singled out and its enum said `must be exactly "all"`: the repairer sent
// "all", every result instead of five.
const listmonk = tool("get_lists", {
  type: "object",
  additionalProperties: false,
  properties: {
    query: { type: "string" },
    per_page: {
      description: "Number of items per page. Use an integer for specific page size or 'all' to retrieve all results",
      oneOf: [
        { type: "integer", description: "Number of items to return per page" },
        { type: "string", enum: ["all"], description: "Return all results without pagination" },
      ],
    },
  },
});

describe("a number or a listed word (listmonk's per_page), sent as a text that carries a number", () => {
  it.each([["+5"], ["5 items"], ["#5"]])("%s is read as the number it carries", async (text) => {
    const { errors, repaired, after } = await roundTrip(listmonk, { query: "news", per_page: text });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe("/per_page");
    expect(errors[0]?.message).toMatch(/send 5 as a JSON number/);
    expect(repaired).toEqual({ query: "news", per_page: 5 });
    expect(after).toBeUndefined();
  });

  it("Python's None for it, optional, is omitted", async () => {
    const { errors, repaired, after } = await roundTrip(listmonk, { query: "news", per_page: "None" });
    expect(errors[0]?.message).toMatch(/omit it/);
    expect(repaired).toEqual({ query: "news" });
    expect(after).toBeUndefined();
  });

  it("a near miss of the word is still the word", async () => {
    const { errors, repaired } = await roundTrip(listmonk, { per_page: "All" });
    expect(errors[0]?.message).not.toMatch(/JSON number/);
    expect(repaired).toEqual({ per_page: "all" });
  });
});

// gotify's updateAppSecurity `regenerateToken` and vikunja's login `long_token` (booleans): a
// secret-named field's value is never quoted back, so Python's None or a quoted boolean there
// heard only "send it as boolean", with no value and no "omit it". A word is no credential.
const secretFlags = tool("update_app", {
  type: "object",
  additionalProperties: false,
  properties: {
    regenerateToken: { type: "boolean" },
    long_token: { type: "boolean" },
    api_token: { type: ["boolean", "null"] },
    password: { type: "string" },
  },
  required: ["long_token"],
});

describe("a word sent for a secret-named flag", () => {
  it("Python's None for an optional one is omitted, the word not quoted", async () => {
    const { errors, repaired, after } = await roundTrip(secretFlags, { regenerateToken: "None", long_token: true });
    expect(errors.map((error) => error.message)).toEqual([
      "expected boolean, got string (not shown: a secret field); the text is a word for no value (as Python's None), not a value in JSON; this field is optional: omit it",
    ]);
    expect(repaired).toEqual({ long_token: true });
    expect(after).toBeUndefined();
  });

  it("None for a nullable one is null; None for a required one is asked for", async () => {
    const nullable = await roundTrip(secretFlags, { long_token: false, api_token: "None" });
    expect(nullable.repaired).toEqual({ long_token: false });
    const required = await roundTrip(secretFlags, { long_token: "None" });
    expect(required.errors[0]?.message).toMatch(/this field is required; if you do not know its value, ask the user/);
  });

  it("any other text stays unquoted and unread", async () => {
    const { errors } = await roundTrip(secretFlags, { long_token: "hunter2" });
    expect(errors[0]?.message).not.toMatch(/hunter2/);
    expect(errors[0]?.message).toMatch(/not shown: a secret field/);
  });
});

// listmonk's campaign preview (previewCampaignTextById): a form body of optional fields, one of
// them a text named `body` like the body itself. The text sent as the body heard "send it as
// object", with no object to send.
const preview = tool("preview_campaign", {
  type: "object",
  additionalProperties: false,
  required: ["id", "body"],
  properties: {
    id: { type: "integer" },
    body: {
      type: "object",
      properties: {
        template_id: { type: "integer", description: "template id" },
        content_type: { type: "string", description: "content type" },
        body: { type: "string", description: "campaign body" },
      },
    },
    note: { type: "object", properties: { text: { type: "string" } } },
  },
});

describe("a text sent for an object whose text field has the object's own name", () => {
  it("goes in that field", async () => {
    const { errors, repaired, after } = await roundTrip(preview, { id: 5, body: "<p>Hello</p>" });
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      ["/body", 'expected object, got string "<p>Hello</p>"; the text goes in "body": send {"body":"<p>Hello</p>"}'],
    ]);
    expect(repaired).toEqual({ id: 5, body: { body: "<p>Hello</p>" } });
    expect(after).toBeUndefined();
  });

  it("an object with no field of its name gets no wrapper", async () => {
    const { errors } = await roundTrip(preview, { id: 5, body: {}, note: "hi" });
    expect(errors[0]?.message).not.toMatch(/send \{/);
  });
});

// firefly-iii's TransactionLinkStore (an open object): `link_type_id` is required, and
// `link_type_name`, a field it declares, "can also be used" (its description says so, the schema
// does not). The name sent, a word of the id's description, heard "a name this object does not
// accept: move /body/link_type_name here", renaming a declared field into an id.
const transactionLink = tool("store_transaction_link", {
  type: "object",
  required: ["link_type_id", "inward_id", "outward_id"],
  properties: {
    link_type_id: { type: "string", description: "The link type ID to use. You can also use the link_type_name field." },
    link_type_name: { type: "string", description: "The link type name to use. You can also use the link_type_id field." },
    inward_id: { type: "string" },
    outward_id: { type: "string" },
    notes: { type: ["string", "null"] },
  },
});

describe("a required field left out beside a declared field its description names", () => {
  it("is asked for, and the declared field is left where it is", async () => {
    const { errors, repaired } = await roundTrip(transactionLink, { link_type_name: "Is paid by", inward_id: "131", outward_id: "132" });
    expect(errors.map((error) => error.path)).toEqual(["/link_type_id"]);
    expect(errors[0]?.message).not.toMatch(/does not (accept|declare)/);
    expect(errors[0]?.message).toMatch(/ask the user/);
    expect(repaired).toEqual({ link_type_name: "Is paid by", inward_id: "131", outward_id: "132" });
  });

  it("a name it does not declare, a word of the description, is still moved", async () => {
    const { errors, repaired } = await roundTrip(transactionLink, { link_type: "5", inward_id: "131", outward_id: "132" });
    expect(errors[0]?.message).toMatch(/move \/link_type here/);
    expect(repaired).toEqual({ link_type_id: "5", inward_id: "131", outward_id: "132" });
  });
});
