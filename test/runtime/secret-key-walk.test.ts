// A failed value's secret-key check rides on the hazard walk (call/attempt.ts): the walk asks the
// redactor's key test of every key it meets, and its answer must be `holdsSecret`'s, for any
// value, wherever the secret key sits (nested, in lists, first or last), and whatever else the
// walk finds. With a secret location by pointer the redactor offers no key test: keys alone do
// not decide there.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findHazards, keyFlagged } from "../../templates/runtime/parse/json-hazards.ts";
import { Redactor } from "../../templates/runtime/ledger/redact.ts";
import type { JsonValue, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { compile } from "./invoice-spec.ts";

const KEYS = ["title", "body", "draft", "password", "apiKey", "client_secret", "token_count", "x-api-key", "name", ""];

const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 4 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 4 }),
  ),
})).value as fc.Arbitrary<JsonValue>;

describe("the secret-key check on the hazard walk's way", () => {
  const redactor = new Redactor({ type: "object" });

  it("says what holdsSecret says, for any value", () => {
    const test = redactor.secretKeyTest();
    expect(test).toBeDefined();
    fc.assert(
      fc.property(values, (value) => {
        const text = JSON.stringify(value);
        const parsed = JSON.parse(text) as JsonValue;
        findHazards(text, parsed, false, { maxDepth: 64, keyTest: test });
        expect(keyFlagged()).toBe(redactor.holdsSecret(parsed));
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it("finds a secret key past a hazard, and forgets it on the next walk", () => {
    const test = redactor.secretKeyTest();
    const text = '{"n": 1e400, "deep": [{"a": 1}, {"password": "x"}]}';
    expect(findHazards(text, JSON.parse(text), false, { maxDepth: 64, keyTest: test })).toHaveLength(1);
    expect(keyFlagged()).toBe(true);
    findHazards('{"title": "t"}', { title: "t" }, false, { maxDepth: 64, keyTest: test });
    expect(keyFlagged()).toBe(false);
    // Without a key test the walk flags nothing.
    findHazards(text, JSON.parse(text), false, { maxDepth: 64 });
    expect(keyFlagged()).toBe(false);
  });

  it("offers no key test where a location by pointer is secret", () => {
    expect(new Redactor({ type: "object" }, {}, ["/body/pin"]).secretKeyTest()).toBeUndefined();
    expect(new Redactor({ type: "object" }, {}, undefined, ["/X-Signature"]).secretKeyTest()).toBeUndefined();
  });
});

describe("a failed call through a tool's hazard walk", () => {
  // A tool with a generated-style hazard walk: a failed text takes the full hazard walk, which
  // also answers the secret-key question for the envelope's quotes.
  const schema = {
    type: "object" as const,
    properties: { user: { type: "string" }, login: { type: "object", properties: { password: { type: "string" } } } },
    additionalProperties: false,
  };
  const spec: ToolSpec = {
    name: "sign_in",
    description: "Sign in",
    inputSchema: schema,
    validate: compile(schema),
    coercions: {},
    hints: { "#/properties/user": { types: ["string"] }, "#/properties/login/properties/password": { types: ["string"] } },
    references: {},
    hazardWalk: { depth: 2, walk: () => false },
  };
  const tool = defineTool(spec).implement(() => "ok", { ledger: new MemorySink() });

  it("never quotes a value under a secret key, and quotes one where there is none", async () => {
    let turn = 0;
    const errorsOf = async (text: string) => {
      const outcome = await tool.call(text, { turn: `t${turn++}` });
      expect(outcome.status).toBe("validation_failed");
      return JSON.stringify((outcome as { errors: unknown }).errors);
    };
    const secret = await errorsOf('{"user": "ann", "login": {"password": 808080}}');
    expect(secret).toContain("not shown: a secret field");
    expect(secret).not.toContain("808080");
    expect(await errorsOf('{"user": 808080}')).toContain("808080");
  });
});
