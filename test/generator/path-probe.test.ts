// The printed look at a tool's path arguments (generator/emit/path-probe.ts, the hazard walk's
// `plainPath`) held to the runtime's look over the binding's names (call/path-arguments.ts
// `plainPathArguments`), and a guard that has it to one without it: same answer on every value.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hazardWalk } from "../../generator/emit/hazard-walk.ts";
import { plainPathProbe } from "../../generator/emit/path-probe.ts";
import { createGuard } from "../../templates/runtime/call/guard.ts";
import { PlainArgument, pathArgumentNames, plainArgument, plainPathArguments } from "../../templates/runtime/call/path-arguments.ts";
import type { HazardWalk, HttpBinding, JsonSchema, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { walkedSpec } from "../helpers/walked-spec.ts";
import { anyValue, shortestNumber } from "../../templates/runtime/parse/json-hazards.ts";

// Names a printed read must spell as a string (`a-b`, `private`, `constructor`) as well as plain ones.
const NAMES = ["owner", "repo", "a-b", "private", "constructor", "0", "id"] as const;
// Values at and around the look's boundary: `.`, `%`, empty, numbers, other types.
const VALUE = fc.oneof(
  fc.constantFrom<unknown>("", ".", "..", "a.b", "%2e", "50%", "octocat", "hello-world", 0, -1, 2.5, true, null, [], {}, ["x"]),
  fc.string({ maxLength: 6, unit: fc.constantFrom("a", ".", "%", "-", "é", "\u{1f600}") }),
);
const binding = (names: readonly string[]): HttpBinding => ({
  method: "post",
  path: `/x/${names.map((name) => `{${name}}`).join("/")}`,
  servers: ["https://api.example.com"],
  parameters: names.map((name) => ({ arg: name, name, in: "path" as const, style: "simple", explode: false })),
});

function printed(http: HttpBinding): (value: unknown) => boolean {
  const code = plainPathProbe(http);
  if (code === undefined) throw new Error("a binding with path arguments prints a look");
  return new Function("PlainArgument", `return ${code.text};`)(PlainArgument) as (value: unknown) => boolean;
}

describe("the printed path look", () => {
  it("answers as the runtime's look over the binding's names", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }),
        fc.array(fc.dictionary(fc.constantFrom(...NAMES), VALUE), { maxLength: 8 }),
        (names, values) => {
          const http = binding(names);
          const look = printed(http);
          for (const args of values) expect(look(args)).toBe(plainPathArguments(pathArgumentNames(http), args));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("remembers only a value it found plain: over repeated values, each look answers as plainArgument", () => {
    // A pool of few values, so that most values repeat one seen before, plain or not.
    const pool = fc.constantFrom<unknown>("", ".", "a.b", "50%", "octocat", "hello-world", 7, null, ["octocat"]);
    fc.assert(
      fc.property(fc.array(pool, { maxLength: 30 }), (values) => {
        const look = new PlainArgument();
        for (const value of values) expect(look.holds(value)).toBe(plainArgument(value));
      }),
      { numRuns: 500 },
    );
  });

  it("prints nothing without path arguments, and the walk carries it only with them", () => {
    expect(plainPathProbe(undefined)).toBeUndefined();
    const query: HttpBinding = { ...binding(["q"]), parameters: [{ arg: "q", name: "q", in: "query" }] };
    expect(plainPathProbe(query)).toBeUndefined();
    const inputSchema = { type: "object", properties: { owner: { type: "string" } } } as JsonSchema;
    expect(hazardWalk({ inputSchema })?.text).not.toContain("plainPath");
    expect(hazardWalk({ inputSchema, http: binding(["owner"]) })?.text).toContain("plainPath: ((look0 = new PlainArgument()) => (value) =>");
  });

  it("gives a guard the answer of one without it, pass or path problem", () => {
    const names = ["owner", "repo", "id"];
    const http = binding(names);
    const inputSchema = {
      type: "object",
      // `owner` typed, `repo` and `id` of any type: the look meets every kind of value after validation.
      properties: { owner: { type: "string" }, repo: {}, id: {} },
      required: names,
    } as JsonSchema;
    const code = hazardWalk({ inputSchema, http });
    if (code === undefined) throw new Error("a typed object gets a walk");
    const walk = new Function("shortestNumber", "anyValue", "PlainArgument", `return ${code.text};`)(shortestNumber, anyValue, PlainArgument) as HazardWalk;
    const spec = (hazards: HazardWalk): ToolSpec => walkedSpec(inputSchema, hazards, http);
    const sink = { append() {}, flush: () => Promise.resolve(), close: () => Promise.resolve() };
    const { plainPath, ...withoutLook } = walk;
    expect(plainPath).toBeTypeOf("function");
    const looking = createGuard(spec(walk), () => "ran", { ledger: sink });
    const general = createGuard(spec(withoutLook), () => "ran", { ledger: sink });
    let turn = 0;
    let problems = 0;
    fc.assert(
      fc.property(VALUE, VALUE, VALUE, (owner, repo, id) => {
        const raw = JSON.stringify({ owner, repo, id });
        const answer = (guard: typeof looking) => {
          const checked = guard.check(raw, { turn: `${turn++}` });
          return checked.ok ? { ok: true, args: checked.args } : { ok: false, outcome: checked.outcome };
        };
        const expected = answer(general);
        if (!expected.ok) problems++;
        expect(answer(looking)).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
    expect(problems).toBeGreaterThan(100);
  });
});
