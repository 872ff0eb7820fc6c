// Fresh inputs, round 21 (probe21a): shapes of round 21's fresh descriptions that none of the
// messages was written against (docs/corpus.md, "Fresh inputs, round 21: descriptions"). Each
// schema is cut from the input named, to the fields that matter.
import { afterAll, describe, expect, it } from "vitest";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { operationTool, roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// apache/iceberg 7f879b1136 (Apache-2.0), `open-api/rest-catalog-open-api.yaml` (hand-kept,
// OpenAPI 3.1.1): the `Idempotency-Key` header of every mutating operation is a uuid of exactly 36
// characters whose example is written in upper case. Sent without its dashes, the text was offered
// back dashed but lower-cased: a uuid reads the same in either case, but the key is stored and
// compared as sent, so the offer changed more than the dashes (7 cases repaired to another call).
const idempotent = tool("dropView", {
  type: "object",
  required: ["view"],
  properties: {
    view: { type: "string" },
    "Idempotency-Key": { type: "string", format: "uuid", minLength: 36, maxLength: 36, example: "017F22E2-79B0-7CC3-98C4-DC0C0C07398F" },
  },
});

describe("a uuid sent without its dashes (Iceberg's idempotency key)", () => {
  it("offers the same digits dashed, in the case they were sent", async () => {
    const sent = { view: "sales", "Idempotency-Key": "017F22E279B07CC398C4DC0C0C07398F" };
    const { errors, repaired, after } = await roundTrip(idempotent, sent);
    expect(errors.find(({ rule }) => rule === "format")?.message).toContain('send "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"');
    expect(repaired).toEqual({ view: "sales", "Idempotency-Key": "017F22E2-79B0-7CC3-98C4-DC0C0C07398F" });
    expect(after).toBeUndefined();
  });

  it("keeps lower-case digits lower-case", async () => {
    const { repaired, after } = await roundTrip(idempotent, { view: "sales", "Idempotency-Key": "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}" });
    expect(repaired).toEqual({ view: "sales", "Idempotency-Key": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f" });
    expect(after).toBeUndefined();
  });
});

// The same document, `replaceView`: `requirements` is a list of `ViewRequirement`, `type: object`
// with a discriminated `oneOf` of one member, `AssertViewUUID` (the tag, a const, and `uuid`, a
// plain text). A text sent for a requirement heard only `send it as object`: the one member that
// wraps a text was looked for in a union with no type of its own, never in one typed `object`.
const replaceView = operationTool(
  "replaceView",
  { type: "object", required: ["requirements"], properties: { requirements: { type: "array", items: { $ref: "#/components/schemas/ViewRequirement" } } } },
  {
    ViewRequirement: {
      type: "object",
      discriminator: { propertyName: "type", mapping: { "assert-view-uuid": "#/components/schemas/AssertViewUUID" } },
      oneOf: [{ $ref: "#/components/schemas/AssertViewUUID" }],
    },
    AssertViewUUID: { required: ["type", "uuid"], properties: { type: { type: "string", const: "assert-view-uuid" }, uuid: { type: "string" } } },
  },
  "3.1.1",
);

describe("a text where a union typed object wants its one wrapper (Iceberg's view requirements)", () => {
  it("offers the member that wraps the text", async () => {
    const { errors, repaired, after } = await roundTrip(replaceView, { body: { requirements: ["4b0e6a2c"] } });
    expect(errors).toEqual([
      {
        path: "/body/requirements/0",
        rule: "type",
        message: 'expected object, got string "4b0e6a2c"; the text goes in "uuid": send {"type":"assert-view-uuid","uuid":"4b0e6a2c"}',
      },
    ]);
    expect(repaired).toEqual({ body: { requirements: [{ type: "assert-view-uuid", uuid: "4b0e6a2c" }] } });
    expect(after).toBeUndefined();
  });

  it("offers none where the union states fields of its own beside its members", async () => {
    const own = operationTool(
      "replaceView",
      { type: "object", properties: { requirement: { $ref: "#/components/schemas/Requirement" } } },
      {
        Requirement: { type: "object", required: ["view"], properties: { view: { type: "string" } }, oneOf: [{ $ref: "#/components/schemas/AssertViewUUID" }] },
        AssertViewUUID: { required: ["type", "uuid"], properties: { type: { const: "assert-view-uuid" }, uuid: { type: "string" } } },
      },
    );
    const { errors } = await roundTrip(own, { body: { requirement: "4b0e6a2c" } });
    expect(errors.map(({ message }) => message).join(" ")).not.toContain("send {");
  });
});
