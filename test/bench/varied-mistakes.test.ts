// Figure 2's first-time mistakes (bench/lib/varied-mistakes.ts): a row that claims to price a
// mistake the envelope has not seen must send wrong values that do not repeat, stay wrong, and
// are the same on every run.
import { describe, expect, it } from "vitest";
import { ONE_MISTAKE_GITHUB, ONE_MISTAKE_INVOICE } from "../../bench/lib/bodies.ts";
import { VARIED_MISTAKES, variedMistakeTexts } from "../../bench/lib/varied-mistakes.ts";

const BODIES: Readonly<Record<string, unknown>> = { create_invoice: ONE_MISTAKE_INVOICE, ...ONE_MISTAKE_GITHUB };
/** What a valid call may hold at each mistake's place (the schema's enum; booleans the coercion reads). */
const RIGHT: Readonly<Record<string, (value: unknown) => boolean>> = {
  create_invoice: (value) => ["USD", "EUR", "GBP"].includes(value as string),
  issues_create: (value) => typeof value !== "object" || value === null,
  pulls_create: (value) => typeof value !== "string" || ["true", "false"].includes(value.trim().toLowerCase()),
  "repos_create-for-authenticated-user": (value) => ["PR_TITLE", "COMMIT_OR_PR_TITLE"].includes(value as string),
};

const at = (text: string, path: readonly string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], JSON.parse(text));

describe("figure 2's new wrong values", () => {
  it.each(Object.keys(VARIED_MISTAKES))("%s: distinct, each one wrong, repeated only in order once all were sent", (name) => {
    const { texts, wrongValues } = variedMistakeTexts(name, BODIES[name], 4096);
    const path = VARIED_MISTAKES[name]?.at as readonly string[];
    const values = texts.map((text) => JSON.stringify(at(text, path)));
    expect(new Set(texts).size).toBe(4096);
    // Far more values than the 32 the envelope remembers per location.
    expect(wrongValues).toBeGreaterThan(500);
    expect(new Set(values.slice(0, wrongValues)).size).toBe(wrongValues);
    for (const [index, value] of values.entries()) expect(value).toBe(values[index % wrongValues]);
    for (const text of texts) expect(RIGHT[name]?.(at(text, path)), text).toBe(false);
    // The rest of the body is the one-mistake body's, but for the free text's number.
    const { [path[0] as string]: _mistake, ...rest } = JSON.parse(texts[0] as string) as Record<string, unknown>;
    expect(Object.keys(rest).sort()).toEqual(
      Object.keys(BODIES[name] as object)
        .filter((key) => key !== path[0])
        .sort(),
    );
  });

  it("is the same on every run, and another seed draws other values", () => {
    const name = "repos_create-for-authenticated-user";
    const body = BODIES[name];
    expect(variedMistakeTexts(name, body, 256)).toEqual(variedMistakeTexts(name, body, 256));
    expect(variedMistakeTexts(name, body, 256, 2).texts).not.toEqual(variedMistakeTexts(name, body, 256).texts);
  });
});
