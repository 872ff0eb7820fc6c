// Fresh inputs, round 19 (probe19): shapes of round 19's fresh descriptions that none of the
// messages was written against (docs/corpus.md, "Fresh inputs, round 19"). Each schema is cut
// from the input named, to the fields that matter.
import { afterAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { operationTool, roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

/** The tool an OpenAPI 3.0 description of one operation makes: `body` its request body. */
const operation = (operationId: string, body: unknown, schemas: Record<string, unknown>): ToolDescription => operationTool(operationId, body, schemas, "3.0.3");

// Skyvern-AI/skyvern 07222e7a7 (AGPL-3.0), `fern/openapi/skyvern_openapi.json` (FastAPI),
// `update_credential_v1_credentials_credential_id_update_post`: `credential` is an `anyOf` of a
// password, a card and a secret, and its name is a secret word, so the explainer sees it hidden.
// A hidden object holds its fields privately: read through `Object.keys` it held none, so no
// member was singled out and the union said `add "password" and "username"` beside the password
// and user name sent, where the password member's `totp_type: "plain"` was the one thing wrong.
const totpType = { type: "string", enum: ["authenticator", "email", "text", "passkey", "none"] };
const updateCredential = tool("update_credential", {
  type: "object",
  required: ["body"],
  properties: {
    body: {
      type: "object",
      required: ["credential"],
      properties: {
        name: { type: "string" },
        credential: {
          anyOf: [
            {
              type: "object",
              required: ["password", "username"],
              properties: { password: { type: "string", minLength: 1 }, username: { type: "string", minLength: 1 }, totp_type: totpType },
            },
            {
              type: "object",
              required: ["card_number", "card_cvv"],
              properties: { card_number: { type: "string", minLength: 1 }, card_cvv: { type: "string", minLength: 1 } },
            },
            { type: "object", required: ["secret_value"], properties: { secret_value: { type: "string", minLength: 1 } } },
          ],
        },
      },
    },
  },
});

describe("a secret-named object's fields (Skyvern's credential)", () => {
  it("single out the member they belong to, whose own error is said at its field", async () => {
    const sent = { body: { name: "Amazon Login", credential: { password: "pw-1", username: "user@example.com", totp_type: "plain" } } };
    const { errors, repaired, after } = await roundTrip(updateCredential, sent);
    expect(errors.map(({ path, rule }) => ({ path, rule }))).toEqual([{ path: "/body/credential/totp_type", rule: "enum" }]);
    expect(errors[0]?.message).toContain('did you mean "text"?');
    expect(errors[0]?.message).not.toContain("pw-1");
    expect(repaired).toEqual({ body: { ...sent.body, credential: { ...sent.body.credential, totp_type: "text" } } });
    expect(after).toBeUndefined();
  });

  it("are not asked for again when no member is singled out: only what each member lacks is named", async () => {
    const { errors } = await roundTrip(updateCredential, { body: { credential: { password: "pw-1", card_number: "4111" } } });
    expect(errors.map((error) => error.message)).toEqual([
      'the object fits none of the allowed shapes; each lacks a required field: add "username", or add "card_cvv", or add "secret_value". If you do not know the value, ask the user instead of guessing',
    ]);
  });
});

// The same reading under a discriminator (a shape of the class, not cut from an input): a
// secret-named object's tag is read as one of the listed kinds, never quoted otherwise. Without
// the fix HiddenValue's own `type` ("object") was read as the tag and the kind's errors were lost.
const bearer = {
  type: "object",
  required: ["type", "token"],
  properties: { type: { type: "string", enum: ["bearer"] }, token: { type: "string", minLength: 8 } },
};
const basic = { type: "object", required: ["type", "user"], properties: { type: { type: "string", enum: ["basic"] }, user: { type: "string" } } };
const connect = operation(
  "connect",
  {
    type: "object",
    required: ["credentials"],
    properties: {
      credentials: {
        oneOf: [{ $ref: "#/components/schemas/Bearer" }, { $ref: "#/components/schemas/Basic" }],
        discriminator: { propertyName: "type", mapping: { bearer: "#/components/schemas/Bearer", basic: "#/components/schemas/Basic" } },
      },
    },
  },
  { Bearer: bearer, Basic: basic },
);

describe("a secret-named discriminated object", () => {
  it("keeps the errors of the kind its hidden tag names", async () => {
    const { errors } = await roundTrip(connect, { body: { credentials: { type: "bearer", token: "short" } } });
    expect(errors).toEqual([
      { path: "/body/credentials/token", rule: "minLength", message: "got string (not shown: a secret field); must be at least 8 characters long" },
    ]);
  });

  it("names the kind its other fields are, and the listed kind its tag says", async () => {
    const { errors, repaired } = await roundTrip(connect, { body: { credentials: { type: "bearer", user: "ops" } } });
    expect(errors.map((error) => error.message)).toEqual([
      'got string (not shown: a secret field); the other fields are those of "basic", not of "bearer": send "basic" if that is the kind you meant, else keep "bearer" and add the fields it requires ("token")',
    ]);
    expect(repaired).toEqual({ body: { credentials: { type: "basic", user: "ops" } } });
  });
});

// lakekeeper/lakekeeper 90892e9cc (Apache-2.0), `docs/docs/api/management-open-api.yaml` (utoipa),
// `update_warehouse_delete_profile`: `TabularDeleteProfile` is a discriminated `oneOf` of a hard
// and a soft profile. Its tag sent as a list of one (`["hard"]`) named no kind, and heard only
// "must be one of ["hard", "soft"]", which a literal repairer cannot apply.
const updateDeleteProfile = operation(
  "update_warehouse_delete_profile",
  { type: "object", required: ["delete-profile"], properties: { "delete-profile": { $ref: "#/components/schemas/TabularDeleteProfile" } } },
  {
    TabularDeleteProfile: {
      oneOf: [{ $ref: "#/components/schemas/TabularDeleteProfileHard" }, { $ref: "#/components/schemas/TabularDeleteProfileSoft" }],
      discriminator: {
        propertyName: "type",
        mapping: { hard: "#/components/schemas/TabularDeleteProfileHard", soft: "#/components/schemas/TabularDeleteProfileSoft" },
      },
    },
    TabularDeleteProfileHard: { type: "object", required: ["type"], properties: { type: { type: "string", enum: ["hard"] } } },
    TabularDeleteProfileSoft: {
      type: "object",
      required: ["expiration-seconds", "type"],
      properties: { "expiration-seconds": { type: "integer", format: "int64" }, type: { type: "string", enum: ["soft"] } },
    },
  },
);

describe("a discriminator's kind sent as a list of one (Lakekeeper's delete profile)", () => {
  it("hears the one value to send", async () => {
    const { errors, repaired, after } = await roundTrip(updateDeleteProfile, { body: { "delete-profile": { type: ["hard"] } } });
    expect(errors).toEqual([
      {
        path: "/body/delete-profile/type",
        rule: "enum",
        message: 'got array ["hard"]; "type" says what kind of object this is, one value, not a list: send "hard"',
      },
    ]);
    expect(repaired).toEqual({ body: { "delete-profile": { type: "hard" } } });
    expect(after).toBeUndefined();
  });

  it("and beside the other kind's fields, the kind they are", async () => {
    const { errors } = await roundTrip(updateDeleteProfile, { body: { "delete-profile": { type: ["soft"], "expiration-seconds": 60 } } });
    expect(errors[0]?.message).toBe('got array ["soft"]; "type" says what kind of object this is, one value, not a list: send "soft"');
  });
});

// Radarr/Radarr 1b9662d58 (GPL-3.0), `src/Radarr.Api.V3/openapi.json` (Swashbuckle),
// `post_api_v3_notification_action_name`: a notification's `fields` list item sent flat. The
// letters of `section` run through `supportsOnManualInteractionRequired`, a field of the body
// itself, so `section` heard "did you mean supportsOnManualInteractionRequired?" while its fellows
// were moved into `fields/0`, where `section` is declared exactly.
const field = {
  type: "object",
  additionalProperties: false,
  properties: { name: { type: "string" }, helpText: { type: "string" }, section: { type: "string" }, privacy: { type: "string", enum: ["normal", "apiKey"] } },
};
const notification = tool("post_api_v3_notification_action_name", {
  type: "object",
  required: ["body"],
  properties: {
    body: {
      type: "object",
      additionalProperties: false,
      properties: {
        id: { type: "integer" },
        name: { type: "string" },
        fields: { type: "array", items: field },
        onGrab: { type: "boolean" },
        supportsOnManualInteractionRequired: { type: "boolean" },
      },
    },
  },
});

describe("a field name declared one level away, whose letters a longer name holds (Radarr's section)", () => {
  it("is moved there, not renamed to the longer name", async () => {
    const { errors, repaired, after } = await roundTrip(notification, { body: { name: "mail", helpText: "h", section: "general", privacy: "normal" } });
    expect(errors.find((error) => error.path === "/body/section")?.message).toBe(
      'unknown field "section" at this level; it belongs at /body/fields/0/section: move it to /body/fields/0/section',
    );
    expect(repaired).toEqual({ body: { name: "mail", fields: [{ helpText: "h", section: "general", privacy: "normal" }] } });
    expect(after).toBeUndefined();
  });

  it("an abbreviation declared nowhere else is still read as one", async () => {
    const { errors } = await roundTrip(notification, { body: { name: "mail", supManInt: true } });
    expect(errors[0]?.message).toContain('did you mean "supportsOnManualInteractionRequired"?');
  });
});

// 1Panel-dev/1Panel 376d6609f (GPL-3.0), `cmd/server/docs/swagger.json` (swag, Swagger 2.0): 24
// operations write gin's `/apps/:key` for `/apps/{key}`; Radarr's `GET /` declares a path
// parameter `path` its template does not name. The dispatcher fills `{name}` only, so each call
// went to the path as written, its argument dropped. Each such operation is now skipped, naming
// the parameter and the fix; the others are read.
describe("a path parameter its path template does not name (1Panel, Radarr)", () => {
  it("skips the operation with its cause and reads the rest", () => {
    // As the Swagger 2.0 document reads once converted (the loader converts it first).
    const key = { name: "key", in: "path", required: true, schema: { type: "string" } };
    const document = {
      openapi: "3.0.3",
      info: { title: "1Panel", version: "v1" },
      paths: {
        "/apps/:key": { get: { operationId: "searchAppByKey", parameters: [key], responses: { "200": { description: "OK" } } } },
        "/apps/{key}/detail": { get: { operationId: "appDetail", parameters: [key], responses: { "200": { description: "OK" } } } },
      },
    };
    const { tools, skipped } = readOpenApi({ file: "1panel.json", document });
    expect(tools.map((found) => found.name)).toEqual(["appDetail"]);
    expect(skipped.map((skip) => skip.reason)).toEqual([
      expect.stringMatching(/path parameter "key" is not in the path template, so its value would be sent nowhere.*":key" as "\{key\}"/),
    ]);
  });
});

// Found while fixing the above: a received object quoted back (`got object {...}`) serialised a
// hidden member as HiddenValue's own fields, as if the model had sent an object for its token.
describe("a received object holding a secret-named field", () => {
  it("shows the field as not shown, not as an object", async () => {
    const member = (extra: string) => ({
      type: "object",
      additionalProperties: false,
      required: ["api_token"],
      properties: { api_token: { type: "string" }, [extra]: { type: "integer" } },
    });
    const parts = tool("parts", { type: "object", required: ["part"], properties: { part: { anyOf: [member("a"), member("b")] } } });
    const { errors } = await roundTrip(parts, { part: { api_token: "sk-live-123", c: 1 } });
    expect(errors.map((error) => error.message)).toEqual(['got object {"api_token":"(not shown: a secret fiel…; it matches none of the allowed shapes']);
    expect(JSON.stringify(errors)).not.toContain("sk-live-123");
  });
});
