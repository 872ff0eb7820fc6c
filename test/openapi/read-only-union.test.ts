// A property read-only in one allOf member (a base `Reference` whose `type` is readOnly) and
// declared writable, with an enum, in another: the enum is what tells a oneOf's branches apart
// (PagerDuty's contact methods differ only by `type`). Removing the definition for the read-only
// name let an email contact method match every branch, and the guard refused every valid call as
// "matches more than one of the allowed shapes" (24 false rejections in PagerDuty's REST API).
// The definition stays; the name still leaves `required`, as OpenAPI says for readOnly.
// Fixture: fixtures/openapi/read-only-union.json.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { ReadResult } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const root = path.resolve(import.meta.dirname, "../fixtures/openapi");

describe("read-only names across allOf inside a oneOf", () => {
  let result: ReadResult;
  beforeAll(async () => {
    result = readOpenApi(await loadOpenApiDocument(path.join(root, "read-only-union.json"), { root }));
  });

  it("each branch's call passes, and a call that fits no branch or two is still refused", () => {
    const tool = result.tools.find((candidate) => candidate.name === "createContactMethod");
    expect(tool).toBeDefined();
    // Compiled as generated packages compile it (combinators folded).
    const { ajv, compiled } = prepareCompile(tool!.dialect, structuredClone(tool!.inputSchema), true);
    const validate = ajv.compile(compiled);
    const call = (contact_method: object) => ({ id: "PXPGF42", body: { contact_method } });
    expect(validate(call({ type: "email_contact_method", label: "Work", address: "a@example.com" }))).toBe(true);
    expect(validate(call({ type: "phone_contact_method", label: "Mobile", address: "5551234", country_code: 1 }))).toBe(true);
    expect(validate(call({ type: "push_notification_contact_method", label: "Phone", address: "token" }))).toBe(true);
    // The branches' own assertions still hold: a phone without its country code fits no branch.
    expect(validate(call({ type: "phone_contact_method", label: "Mobile", address: "5551234" }))).toBe(false);
    expect(validate(call({ type: "fax", label: "Old", address: "1" }))).toBe(false);
  });

  it("the read-only name is not required, and a name read-only where it is declared is still left out", () => {
    const tool = result.tools.find((candidate) => candidate.name === "createContactMethod")!;
    const defs = (tool.inputSchema as { $defs: Record<string, { allOf?: { required?: string[] }[]; properties?: Record<string, unknown> }> }).$defs;
    expect(defs.ContactMethod?.allOf?.[1]?.required).toEqual(["label", "address"]);
    expect(defs.Reference?.properties).toEqual({});
  });
});
