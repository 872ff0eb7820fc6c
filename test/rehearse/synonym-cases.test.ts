// "allowed value as a synonym" sends a plain-English word for a listed value. Where another
// listed value, of any type, shares that word's meaning (changedetection.io's `changesOnly`:
// "true", "1", "yes", "on", ...; Netdata's `bearer_protection`: "on", "off", true, false, "yes",
// "no"), the word could mean either and the explainer rightly names none, so no case is made
// (docs/corpus.md, round 18).
import { describe, expect, it } from "vitest";
import { mistakesOf } from "../../generator/rehearse/mistakes/classes.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";

const synonyms = (values: unknown[], sent: string): string[] => {
  const schema: Schema = { type: "object", additionalProperties: false, properties: { flag: { enum: values } } };
  return mistakesOf("t", "t.json", schema, { flag: sent }, seeded(1))
    .filter((entry) => entry.mistake === "allowed value as a synonym")
    .map((entry) => JSON.stringify(entry.expect));
};

describe("allowed value as a synonym", () => {
  it("is made where the word stands for one listed value", () => {
    expect(synonyms(["on", "off"], "on")).toEqual([JSON.stringify({ op: "set", path: "/flag", value: "on" })]);
  });

  it("is not made where another listed string shares the word's meaning", () => {
    expect(synonyms(["true", "false", "yes", "no", "on", "off"], "on")).toEqual([]);
  });

  it("is not made where a listed boolean is the word itself", () => {
    expect(synonyms(["on", "off", true, false, "yes", "no"], "no")).toEqual([]);
  });
});
