// "plain text where a wrapper is wanted" sends the one text of an object that only wraps it.
// Where the object is a union member and another member wraps one text too (Cloudinary's visual
// search request: `{image_url}`, `{image_asset_id}` or `{text}`), the text alone could go in
// either, as the explainer says (text-wrapper.ts offers a union's wrapper only when one branch is
// one), so no case is made (docs/corpus.md, round 18).
import { describe, expect, it } from "vitest";
import { mistakesOf } from "../../generator/rehearse/mistakes/classes.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { seeded } from "../../generator/rehearse/mistakes/seeded.ts";

const wraps = (name: string) => ({ type: "object", required: [name], properties: { [name]: { type: "string" }, threshold: { type: "number" } } });

const wrapped = (branches: unknown[]): string[] => {
  const schema: Schema = { type: "object", required: ["request"], properties: { request: { anyOf: branches } } };
  return mistakesOf("t", "t.json", schema, { request: { image_url: "https://a.example/b.png" } }, seeded(1))
    .filter((entry) => entry.mistake === "plain text where a wrapper is wanted")
    .map((entry) => JSON.stringify(entry.expect));
};

describe("plain text where a wrapper is wanted, in a union", () => {
  it("is made where one member wraps a text", () => {
    expect(wrapped([wraps("image_url"), { type: "object", required: ["ids"], properties: { ids: { type: "array" } } }])).toEqual([
      JSON.stringify({ op: "set", path: "/request", value: { image_url: "https://a.example/b.png" } }),
    ]);
  });

  it("is not made where two members wrap a text each", () => {
    expect(wrapped([wraps("image_url"), wraps("image_asset_id"), wraps("text")])).toEqual([]);
  });
});
