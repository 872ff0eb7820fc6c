// A passing attempt whose keys the tool's generated walk found all declared is written without the
// ledger's secret-name scan (ledger/declared-keys.ts). That is only speed: for any text, the raw
// text the ledger writes is exactly what the full scan writes (`Redactor.raw` without the mark),
// whatever undeclared key the text holds and wherever: at the top, in an open object, in an
// array's items, under additionalProperties or patternProperties, inside a value of no one type,
// repeated (a copy the parsed value lost), or spelled with a `\u` escape. And the mark is set
// exactly when every key is declared, so the shortcut is taken where it should be.
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { HazardWalk, JsonSchema, JsonValue, StandaloneValidator, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { keysDeclared } from "../../templates/runtime/ledger/declared-keys.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { redactorFor } from "../../templates/runtime/ledger/redact.ts";
import { loadWalk, walkedSpec } from "../helpers/walked-spec.ts";

/** Open objects (GitHub's bodies are), items, a closed object, extra keys by schema and by pattern, a value of no one type. */
const openSchema = {
  type: "object",
  properties: {
    title: { type: "string" },
    count: { type: "integer" },
    labels: { type: "array", items: { type: "string" } },
    owner: { type: "object", properties: { login: { type: "string" }, id: { type: "integer" } } },
    items: { type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" } } } },
    closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    extra: { type: "object", properties: { k: { type: "string" } }, additionalProperties: { type: "object", properties: { v: { type: "string" } } } },
    patterned: { type: "object", patternProperties: { "^x-": { type: "object" } } },
    either: { oneOf: [{ type: "string" }, { type: "object", properties: { note: { type: "string" } }, required: ["note"] }] },
    // Values of several types (guarded walks): GitHub's labels, rules told apart by their `type`
    // (a key of one branch's parameters is declared there for all), and the parts of an allOf.
    tags: { type: "array", items: { oneOf: [{ type: "string" }, { type: "object", properties: { name: { type: "string" } } }] } },
    rule: {
      type: "object",
      oneOf: [
        { properties: { type: { const: "a" }, parameters: { type: "object", properties: { x: { type: "integer" } } } }, required: ["type"] },
        { properties: { type: { const: "b" }, parameters: { type: "object", properties: { y: { type: "string" } } } }, required: ["type"] },
      ],
    },
    both: { allOf: [{ type: "object", properties: { p: { type: "string" } } }, { $ref: "#/$defs/part" }] },
  },
  required: ["title"],
  $defs: { part: { properties: { q: { type: "array", items: { type: "object", properties: { r: { type: "integer" } } } } } } },
};

/** The same with secrets the schema declares: a secret-named property and a `writeOnly` one. */
const declaringSchema = {
  ...openSchema,
  properties: {
    ...openSchema.properties,
    owner: { type: "object", properties: { login: { type: "string" }, id: { type: "integer" }, token: { type: "string" } } },
    items: {
      type: "array",
      items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" }, memo: { type: "string", writeOnly: true } } },
    },
  },
};

function load(inputSchema: JsonSchema): HazardWalk {
  const walk = loadWalk(inputSchema);
  if (walk === undefined) throw new Error("the schema should get a walk");
  return walk;
}

const spec = (inputSchema: JsonSchema): ToolSpec => walkedSpec(inputSchema, load(inputSchema));

const word = fc.stringMatching(/^[a-z]{0,6}$/);
/** Arguments with only keys the schema declares somewhere at their place (`x` of a "b" rule is one of an "a" rule's). */
const declaredArgs = fc.record(
  {
    title: word,
    count: fc.integer({ min: -1000, max: 1000 }),
    labels: fc.array(word, { maxLength: 3 }),
    owner: fc.record({ login: word, id: fc.nat(99) }, { requiredKeys: [] }),
    items: fc.array(fc.record({ sku: word, qty: fc.nat(9) }, { requiredKeys: [] }), { maxLength: 3 }),
    closed: fc.record({ a: word }, { requiredKeys: [] }),
    extra: fc.record({ k: word }, { requiredKeys: [] }),
    either: fc.oneof(word, fc.record({ note: word })),
    tags: fc.array(fc.oneof(word, fc.record({ name: word }, { requiredKeys: [] })), { maxLength: 3 }),
    rule: fc.record({ type: fc.constantFrom("a", "b"), parameters: fc.record({ x: fc.nat(9), y: word }, { requiredKeys: [] }) }, { requiredKeys: ["type"] }),
    both: fc.record({ p: word, q: fc.array(fc.record({ r: fc.nat(9) }, { requiredKeys: [] }), { maxLength: 2 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ["title"] },
);

/** Keys a text may add, as the text spells them: secret names (one with an escape) and a plain one. */
const KEYS = ["password", "pass\\u0077ord", "api_key", "colour"] as const;

/** Where an undeclared key goes: each a way the walk must notice it, or the text must fail. */
const PLACES = [
  "none",
  "top",
  "owner",
  "item",
  "extra key",
  "extra value",
  "pattern",
  "no one type",
  "closed",
  "repeated",
  "repeated inner",
  "union item",
  "union object",
  "union nested",
  "union leaf value",
  "allOf part",
  "repeated in union",
] as const;
type Place = (typeof PLACES)[number];

/** The text of `args` with `"<key>":"<secret>"` added at `place`. */
function textOf(args: Record<string, unknown>, place: Place, key: string, secret: string): string {
  const member = `"${key}":"${secret}"`;
  const rest = (name: string): string => JSON.stringify({ ...args, [name]: undefined }).slice(1);
  switch (place) {
    case "none":
      return JSON.stringify(args);
    case "top":
      return `{${member},${JSON.stringify(args).slice(1)}`;
    case "owner":
      return `{"owner":{${member}},${rest("owner")}`;
    case "item":
      return `{"items":[{"sku":"a"},{${member},"qty":1}],${rest("items")}`;
    case "extra key": // the key of an additionalProperties member itself
      return `{"extra":{"k":"x","${key}":{"v":"${secret}"}},${rest("extra")}`;
    case "extra value":
      return `{"extra":{"k":"x","more":{${member}}},${rest("extra")}`;
    case "pattern":
      return `{"patterned":{"x-a":{${member}}},${rest("patterned")}`;
    case "no one type":
      return `{"either":{"note":"n",${member}},${rest("either")}`;
    case "closed": // the validator refuses it: a failed attempt is always scanned
      return `{"closed":{${member}},${rest("closed")}`;
    case "repeated": // the parsed value keeps only the second owner
      return `{"owner":{${member}},"owner":{"login":"x"},${rest("owner")}`;
    case "repeated inner":
      return `{"owner":{"login":{${member}},"login":"x"},${rest("owner")}`;
    case "union item": // an object in an array of strings and objects
      return `{"tags":["a",{"name":"n",${member}}],${rest("tags")}`;
    case "union object": // beside the property that tells the objects apart
      return `{"rule":{"type":"b",${member}},${rest("rule")}`;
    case "union nested":
      return `{"rule":{"type":"a","parameters":{"x":1,${member}}},${rest("rule")}`;
    case "union leaf value": // an object where one branch declares a string, in the other branch (valid)
      return `{"rule":{"type":"a","parameters":{"y":{${member}}}},${rest("rule")}`;
    case "allOf part":
      return `{"both":{"p":"a","q":[{"r":1},{${member}}]},${rest("both")}`;
    case "repeated in union":
      return `{"tags":[{"name":{${member}},"name":"x"}],${rest("tags")}`;
  }
}

/** A sink that keeps the entries as the guard hands them over (a `MemorySink` keeps their JSON, which has no mark). */
class KeptEntries {
  entry: LedgerEntry | undefined;
  append(entry: LedgerEntry): void {
    this.entry = entry;
  }
  flush = (): Promise<void> => Promise.resolve();
  close = (): Promise<void> => Promise.resolve();
}

async function lastAttempt(tool: { call(raw: unknown, context: { turn: string }): Promise<unknown> }, ledger: KeptEntries, text: string) {
  ledger.entry = undefined;
  await tool.call(text, { turn: `t${Math.random()}` });
  const entry = ledger.entry as LedgerEntry | undefined;
  if (entry === undefined) throw new Error("no entry written");
  // The attempts as the sink writes them: redacted, capped, or the attempt itself when neither changes it.
  return { entry, attempt: entry.attempts.at(-1)! };
}

describe("the ledger's shortcut for texts of declared keys", () => {
  for (const [name, schema] of [
    ["open objects", openSchema],
    ["a schema that declares secrets", declaringSchema],
  ] as const) {
    it(`writes exactly what the full scan writes, wherever a key is added (${name})`, async () => {
      const toolSpec = spec(schema);
      const reference = redactorFor(toolSpec);
      const ledger = new KeptEntries();
      const tool = defineTool(toolSpec).implement(() => "done", { ledger });
      let marked = 0;
      await fc.assert(
        fc.asyncProperty(declaredArgs, fc.constantFrom(...PLACES), fc.constantFrom(...KEYS), fc.nat(1_000_000), async (args, place, key, n) => {
          const secret = `s3cr3t-${n}`;
          const text = textOf(args, place, key, secret);
          const { entry, attempt } = await lastAttempt(tool, ledger, text);
          expect(attempt.raw).toBe(reference.raw(text).text);
          if (key !== "colour" && place !== "none") expect(JSON.stringify(entry)).not.toContain(secret);
          // The mark: on every passing text of declared keys, on none with an undeclared key.
          expect(keysDeclared(attempt)).toBe(place === "none");
          if (keysDeclared(attempt)) marked++;
        }),
        { numRuns: 400, seed: 26 },
      );
      expect(marked).toBeGreaterThan(0);
    });
  }

  const coercedCases: readonly (readonly [string, JsonSchema, ToolSpec["references"]])[] = [
    ["open objects", openSchema, {}],
    ["a schema that declares secrets", declaringSchema, {}],
    // A reference resolved into a secret-named key: an added key the walk never saw. (The written
    // attempt is a copy, its resolution redacted, so it carries no mark; the chain's record does.)
    ["a reference resolved into a secret key", openSchema, { "/title": { kind: "person", target: "api_key" } }],
  ];
  for (const [name, schema, references] of coercedCases) {
    const resolved = Object.keys(references).length > 0;
    it(`writes coerced arguments exactly as the full scan would, wherever a key is added (${name})`, async () => {
      // A number sent as a string is coerced: the line then holds the arguments beside the raw text.
      const toolSpec: ToolSpec = { ...spec(schema), coercions: { "/count": "integer" }, references };
      const reference = redactorFor(toolSpec);
      const ledger = new KeptEntries();
      let received: unknown;
      const tool = defineTool<unknown, unknown, "person">(toolSpec).implement(
        (args) => {
          received = structuredClone(args);
          return "done";
        },
        { ledger, resolvers: { person: () => [{ id: "person-1", label: "Ann" }] } },
      );
      let marked = 0;
      await fc.assert(
        fc.asyncProperty(declaredArgs, fc.constantFrom(...PLACES), fc.constantFrom(...KEYS), fc.nat(1_000_000), async (args, place, key, n) => {
          const secret = `s3cr3t-${n}`;
          const text = `{"count":"${n % 100}",${textOf({ ...args, count: undefined }, place, key, secret).slice(1)}`;
          received = undefined;
          const { entry, attempt } = await lastAttempt(tool, ledger, text);
          expect(attempt.raw).toBe(reference.raw(text).text);
          if (key !== "colour" && place !== "none") expect(JSON.stringify(entry)).not.toContain(secret);
          if (!resolved) expect(keysDeclared(attempt)).toBe(place === "none");
          if (received === undefined) return;
          // What the full scan writes: the coerced arguments with every secret location replaced.
          const expected = structuredClone(received) as JsonValue;
          reference.valueInPlace(expected);
          expect((entry as { arguments?: unknown }).arguments).toEqual(expected);
          if (resolved) expect(JSON.stringify(entry)).not.toContain("person-1");
          if (keysDeclared(attempt) || (resolved && place === "none")) marked++;
        }),
        { numRuns: 400, seed: 26 },
      );
      expect(marked).toBeGreaterThan(0);
    });
  }

  it("redacts a declared secret and a writeOnly field of a text whose keys are all declared", async () => {
    const ledger = new KeptEntries();
    const tool = defineTool(spec(declaringSchema)).implement(() => "done", { ledger });
    const text = JSON.stringify({ title: "t", owner: { login: "ann", token: "tok-123" }, items: [{ sku: "a", memo: "memo-456" }] });
    // Every key is declared (the walk marks the attempt), and the schema's plan still redacts.
    const { entry, attempt } = await lastAttempt(tool, ledger, text);
    expect(attempt.redacted).toBe(2);
    const written = JSON.stringify(entry);
    expect(written).not.toContain("tok-123");
    expect(written).not.toContain("memo-456");
    expect(JSON.parse(attempt.raw)).toEqual({ title: "t", owner: { login: "ann", token: "[redacted]" }, items: [{ sku: "a", memo: "[redacted]" }] });
  });

  it("keeps a text of declared keys as it is, without the scan, when the schema declares no secret", async () => {
    const ledger = new KeptEntries();
    const tool = defineTool(spec(openSchema)).implement(() => "done", { ledger });
    // A value that spells a secret name is not a key: the scan would parse the text and find nothing.
    const text = JSON.stringify({ title: "password", owner: { login: "api_key" } });
    const { attempt } = await lastAttempt(tool, ledger, text);
    expect(keysDeclared(attempt)).toBe(true);
    expect(attempt.raw).toBe(text);
  });

  it("does not mark an attempt whose walk says nothing of keys", async () => {
    const ledger = new KeptEntries();
    const generated = defineTool(spec(openSchema)).implement(() => "done", { ledger });
    // A walk written before `undeclared` existed (or by hand): it adds up keys, and leaves the flag alone.
    const silent: HazardWalk = {
      depth: 1,
      walk: (_value, _checkStrings, state) => {
        state.keys += 100;
        return true;
      },
    };
    const bare = { type: "object" } as ToolSpec["inputSchema"];
    const validate = new Ajv2020({ strict: false }).compile(bare) as unknown as StandaloneValidator;
    const other = defineTool({ name: "u", description: "", inputSchema: bare, validate, coercions: {}, hints: {}, references: {}, hazardWalk: silent });
    const tool = other.implement(() => "done", { ledger });
    // The generated walk ran last and found only declared keys.
    expect(keysDeclared((await lastAttempt(generated, ledger, '{"title":"t"}')).attempt)).toBe(true);
    const { entry, attempt } = await lastAttempt(tool, ledger, '{"password":"hunter2"}');
    expect(keysDeclared(attempt)).toBe(false);
    expect(JSON.stringify(entry)).not.toContain("hunter2");
  });
});
