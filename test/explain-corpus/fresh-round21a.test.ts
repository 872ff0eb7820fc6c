// Fresh inputs, round 21 (probe21a): shapes of round 21's fresh descriptions that none of the
// messages was written against (docs/corpus.md, "Fresh inputs, round 21: descriptions"). Each
// schema is cut from the input named, to the fields that matter.
import { afterAll, describe, expect, it } from "vitest";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { roundTrip, tool } from "./round-trip.ts";

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

