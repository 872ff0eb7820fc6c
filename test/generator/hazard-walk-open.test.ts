// The generated hazard walk reads an open object's declared properties by name and never loops
// over its keys (issue 25: the loop was most of the walk on GitHub's bodies). So an extra key is a
// place the walk does not visit: its hazards must still be caught, because it leaves the text
// spelling more than the walk counted and the runtime's full walk then decides. Each hazard is
// sent at a declared place (the walk sees it) and under an extra key (the walk does not), and the
// guard with the walk must give the rule the guard without it gives.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGuard } from "../../templates/runtime/call/guard.ts";
import type { HazardWalk } from "../../templates/runtime/contract/tool-spec.ts";
import { walkedClean, walkedOnlyDeclaredKeys } from "../../templates/runtime/parse/json-hazards.ts";
import { loadWalk, walkedSpec } from "../helpers/walked-spec.ts";

/** GitHub's shape: a closed top level around an open body, with items that are open objects too. */
const schema = {
  type: "object",
  properties: {
    owner: { type: "string" },
    body: {
      type: "object",
      properties: {
        title: { type: "string" },
        count: { type: "integer" },
        items: { type: "array", items: { type: "object", properties: { sku: { type: "string" } } } },
      },
    },
  },
  required: ["body"],
  additionalProperties: false,
};

const sink = { append() {}, flush: () => Promise.resolve(), close: () => Promise.resolve() };
const walk = loadWalk(schema) as HazardWalk;
const plain = createGuard(walkedSpec(schema, undefined), () => "ran", { ledger: sink });
const walked = createGuard(walkedSpec(schema, walk), () => "ran", { ledger: sink });
const shallowPlain = createGuard(walkedSpec(schema, undefined), () => "ran", { ledger: sink, maxDepth: 6 });
const shallowWalked = createGuard(walkedSpec(schema, walk), () => "ran", { ledger: sink, maxDepth: 6 });

let turn = 0;
/** The first error's rule, or "ok". */
function rule(guard: ReturnType<typeof createGuard>, raw: string): string {
  const result = guard.check(raw, { turn: `t${turn++}` });
  return result.ok ? "ok" : result.outcome.status === "validation_failed" ? (result.outcome.errors[0]?.rule ?? "none") : result.outcome.status;
}

describe("a hazard walk that reads open objects by name", () => {
  it("is written without a loop over the open body's keys", () => {
    const code = walk.walk.toString() + String(loadWalk(schema));
    expect(code).not.toContain("for (const key in value)");
  });

  // Each hazard, once where the walk reads it and once under a key it does not read.
  const cases: readonly [string, string, string][] = [
    ["lone_surrogate", '{"body":{"title":"\\ud800"}}', '{"body":{"title":"a","note":"\\ud800"}}'],
    ["lone_surrogate", '{"body":{"items":[{"sku":"\\udc00"}]}}', '{"body":{"items":[{"sku":"a","\\udc00":1}]}}'],
    ["integer_precision", '{"body":{"count":12345678901234567890}}', '{"body":{"extra":[12345678901234567890]}}'],
    ["number_overflow", '{"body":{"count":1e400}}', '{"body":{"items":[{"sku":"a","n":1e400}]}}'],
    ["duplicate_key", '{"body":{"title":"a","title":"b"}}', '{"body":{"x":1,"x":2}}'],
    ["duplicate_key", '{"body":{"items":[{"sku":"a","sku":"b"}]}}', '{"body":{"items":[{"s":{"k":1,"k":1}}]}}'],
  ];
  it.each(cases)("catches %s where the walk reads and where it does not", (expected, declared, undeclared) => {
    for (const raw of [declared, undeclared]) {
      expect(rule(plain, raw)).toBe(expected);
      expect(rule(walked, raw)).toBe(expected);
    }
  });

  it("catches nesting past the limit under a key it does not read", () => {
    const raw = `{"body":{"deep":${"[".repeat(20)}${"]".repeat(20)}}}`;
    expect(rule(shallowPlain, raw)).toBe("too_deep");
    expect(rule(shallowWalked, raw)).toBe("too_deep");
  });

  it("passes a valid body with extra keys, through the runtime's walk", () => {
    const raw = '{"owner":"o","body":{"title":"t","labels":["bug"],"":0,"items":[{"sku":"s","q":1}]}}';
    expect(rule(walked, raw)).toBe("ok");
    expect(walkedClean(raw, JSON.parse(raw), walk.walk, 64)).toBe(false);
  });

  // A clean walk is what lets the ledger skip its secret-name scan: it must mean that every key
  // was declared, even when the extra members are as short as a member can be (`{"":0}`).
  it("is clean only when every key is declared, and then it is", () => {
    // The walk runs on valid values only: an extra member never takes a declared name.
    const undeclared = (members: Record<string, unknown>, names: readonly string[]) =>
      Object.fromEntries(Object.entries(members).filter(([name]) => !names.includes(name)));
    const key = fc.oneof(fc.constantFrom("", "a", "title", "count"), fc.string({ maxLength: 3 }));
    const leaf = fc.oneof(fc.constantFrom(0, 1, "", "x", true, null), fc.integer({ min: -99, max: 99 }));
    const extras = fc.dictionary(key, leaf, { maxKeys: 2 });
    const body = fc.record(
      {
        title: fc.string({ maxLength: 4 }),
        count: fc.integer({ min: -99, max: 99 }),
        items: fc.array(fc.tuple(fc.record({ sku: fc.string({ maxLength: 3 }) }, { requiredKeys: [] }), extras), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    );
    let clean = 0;
    fc.assert(
      fc.property(body, extras, fc.boolean(), (declared, extra, spaced) => {
        const { items, ...rest } = declared;
        const value = {
          body: {
            ...rest,
            ...(items === undefined ? {} : { items: items.map(([item, more]) => ({ ...undeclared(more, ["sku"]), ...item })) }),
            ...undeclared(extra, ["title", "count", "items"]),
          },
        };
        const raw = JSON.stringify(value, null, spaced ? 1 : undefined);
        const parsed = JSON.parse(raw) as typeof value;
        const allDeclared =
          Object.keys(parsed.body).every((k) => ["title", "count", "items"].includes(k)) &&
          (parsed.body.items ?? []).every((item) => Object.keys(item).every((k) => k === "sku"));
        const isClean = walkedClean(raw, parsed, walk.walk, 64);
        if (isClean) {
          clean++;
          expect(allDeclared).toBe(true);
          expect(walkedOnlyDeclaredKeys()).toBe(true);
        }
        // Compact and unescaped, a text spells exactly what the walk adds up: all declared is clean.
        if (allDeclared && !spaced && !raw.includes("\\")) expect(isClean).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(clean).toBeGreaterThan(100);
  });
});
