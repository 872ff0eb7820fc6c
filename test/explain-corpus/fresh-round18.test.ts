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

// lithic-com/lithic-openapi 225e070 (Apache-2.0), `lithic-openapi.yml`, cut to the fields that
// matter. Lithic's identifiers are named `*_token` (secret by name), its query filters are sets
// written without `type`, its event types a set of 61 values up to 63 characters long, and its
// auth rule request has fields of its own beside an `anyOf` of three kinds of rule.
const EVENT_TYPES = [
  "account_holder_document.updated",
  "account_holder.created",
  "account_holder.updated",
  "account_holder.verification",
  "auth_rules.backtest_report.created",
  "balance.updated",
  "book_transfer_transaction.created",
  "book_transfer_transaction.updated",
  "card_authorization.challenge",
  "card_authorization.challenge_response",
  "card_transaction.enhanced_data.created",
  "card_transaction.enhanced_data.updated",
  "card_transaction.updated",
  "card.converted",
  "card.created",
  "card.reissued",
  "card.renewed",
  "card.shipped",
  "card.updated",
  "claim_document.accepted",
  "claim_document.rejected",
  "claim_document.uploaded",
  "claim.created",
  "claim.updated",
  "digital_wallet.tokenization_result",
  "digital_wallet.tokenization_two_factor_authentication_code",
  "digital_wallet.tokenization_two_factor_authentication_code_sent",
  "digital_wallet.tokenization_updated",
  "dispute_evidence.upload_failed",
  "dispute_transaction.created",
  "dispute_transaction.updated",
  "dispute.updated",
  "embed.session_generated",
  "embed.viewed",
  "external_bank_account.created",
  "external_bank_account.updated",
  "external_payment.created",
  "external_payment.updated",
  "financial_account.created",
  "financial_account.updated",
  "funding_event.created",
  "internal_transaction.created",
  "internal_transaction.updated",
  "loan_tape.created",
  "loan_tape.updated",
  "management_operation.created",
  "management_operation.updated",
  "network_total.created",
  "network_total.updated",
  "payment_transaction.created",
  "payment_transaction.updated",
  "settlement_report.updated",
  "statements.created",
  "three_ds_authentication.challenge",
  "three_ds_authentication.created",
  "three_ds_authentication.updated",
  "tokenization.approval_request",
  "tokenization.result",
  "tokenization.two_factor_authentication_code",
  "tokenization.two_factor_authentication_code_sent",
  "tokenization.updated",
];

const listAccountActivity = tool("listAccountActivity", {
  type: "object",
  additionalProperties: false,
  properties: {
    status: { enum: ["DECLINED", "EXPIRED", "PENDING", "RETURNED", "REVERSED", "SETTLED", "VOIDED"] },
    account_token: { type: "string", format: "uuid" },
    event_types: { type: "array", items: { type: "string", enum: EVENT_TYPES } },
  },
});

describe("Lithic's sets without a type, long values and secret-named uuids", () => {
  it("a list of one for a set without a type hears its item", async () => {
    const { errors, repaired, after } = await roundTrip(listAccountActivity, { status: ["REVERSED"] });
    expect(errors.map((error) => error.message)).toEqual([
      'got array ["REVERSED"]; must be one of ["DECLINED", "EXPIRED", "PENDING", "RETURNED", "REVERSED", "SETTLED", "VOIDED"]: one value goes here, not a list: send "REVERSED"',
    ]);
    expect(repaired).toEqual({ status: "REVERSED" });
    expect(after).toBeUndefined();
  });

  it("a list whose item is not listed hears the set only", async () => {
    const { errors } = await roundTrip(listAccountActivity, { status: ["REVERSE_ALL"] });
    expect(errors.map((error) => error.message)).toEqual([
      'got array ["REVERSE_ALL"]; must be one of ["DECLINED", "EXPIRED", "PENDING", "RETURNED", "REVERSED", "SETTLED", "VOIDED"]',
    ]);
  });

  it("a value longer than the spelling table's reach, misspelt, is still read", async () => {
    const { errors, repaired, after } = await roundTrip(listAccountActivity, { event_types: ["tkenization.two_factor_authentication_code_sent"] });
    expect(errors[0]?.message).toMatch(/did you mean "tokenization\.two_factor_authentication_code_sent"\?$/);
    expect(repaired).toEqual({ event_types: ["tokenization.two_factor_authentication_code_sent"] });
    expect(after).toBeUndefined();
  });

  it("a secret-named uuid without its dashes hears where they go, and is not quoted", async () => {
    const sent = { account_token: "65db64b2ae89491a97d9f64788f8b2ab" };
    const { errors, repaired, after } = await roundTrip(listAccountActivity, sent);
    expect(errors.map((error) => error.message)).toEqual([
      'got string (not shown: a secret field); expected a uuid string such as "123e4567-e89b-12d3-a456-426614174000"; the text is a uuid without its dashes: send the same text with a dash after its 8th, 12th, 16th and 20th characters',
    ]);
    expect(JSON.stringify(errors)).not.toContain("65db64b2");
    expect(repaired).toEqual({ account_token: "65db64b2-ae89-491a-97d9-f64788f8b2ab" });
    expect(after).toBeUndefined();
  });

  it("a secret-named text that is no uuid hears the format only", async () => {
    const { errors } = await roundTrip(listAccountActivity, { account_token: "65db64b2ae89491a97d9f64788f8b2a" });
    expect(errors.map((error) => error.message)).toEqual([
      'got string (not shown: a secret field); expected a uuid string such as "123e4567-e89b-12d3-a456-426614174000"',
    ]);
  });
});

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

// `@cloudinary/asset-management-mcp` 0.11.0 (MIT, its LICENSE file), `manage-asset-metadata`:
// the delivery `type` is a union of six enums, 24 values in all, too many to list, and a union
// got no deletion table, so a misspelt value heard only "matches none of the allowed shapes".
const metadata = tool("manage-asset-metadata", {
  type: "object",
  properties: {
    type: {
      anyOf: [
        { type: "string", enum: ["upload", "private", "authenticated"] },
        { type: "string", enum: ["asset"] },
        { type: "string", enum: ["fetch", "url2png"] },
        {
          type: "string",
          enum: [
            "facebook",
            "twitter",
            "twitter_name",
            "instagram",
            "instagram_name",
            "gravatar",
            "youtube",
            "hulu",
            "vimeo",
            "animoto",
            "dailymotion",
            "worldstarhiphop",
          ],
        },
        { type: "string", enum: ["multi", "sprite", "text", "list"] },
        { type: "string", enum: ["media_optimization"] },
      ],
    },
  },
});

describe("a union of sets too large to list (Cloudinary's delivery type)", () => {
  it("a misspelt value hears the value meant", async () => {
    const { errors, repaired, after } = await roundTrip(metadata, { type: "privated" });
    expect(errors.map((error) => error.message)).toEqual([
      'got string "privated"; it matches none of the allowed shapes; for example "upload" — did you mean "private"?',
    ]);
    expect(repaired).toEqual({ type: "private" });
    expect(after).toBeUndefined();
  });
});

// The same server, `visual-search-assets`: `request` is an `anyOf` of three objects, each
// requiring one field (`image_url`, `image_asset_id` or `text`). A field sent beside `request`
// instead of in it heard only what each member lacks, and the top level, an open object, took it.
const member = (name: string) => ({ type: "object", required: [name], properties: { [name]: { type: "string" }, threshold: { type: "number" } } });
const visualSearch = tool("visual-search-assets", {
  type: "object",
  required: ["request"],
  properties: { request: { anyOf: [member("image_url"), member("image_asset_id"), member("text")] } },
});

describe("a member's required field sent beside the union's object (Cloudinary's visual search)", () => {
  it("is moved into it", async () => {
    const { errors, repaired, after } = await roundTrip(visualSearch, { request: { threshold: 0.5 }, image_url: "https://a.example/b.png" });
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      [
        "/request/image_url",
        'the object fits none of the allowed shapes; each lacks a required field: add "image_url", or add "image_asset_id", or add "text". The call holds "image_url" at /image_url, where it does not belong: move /image_url here',
      ],
    ]);
    expect(repaired).toEqual({ request: { threshold: 0.5, image_url: "https://a.example/b.png" } });
    expect(after).toBeUndefined();
  });

  it("with none of them sent, it asks", async () => {
    const { errors } = await roundTrip(visualSearch, { request: { threshold: 0.5 } });
    expect(errors.map((error) => error.path)).toEqual(["/request"]);
    expect(errors[0]?.message).toMatch(/ask the user instead of guessing$/);
  });
});
