// Over arbitrary JSON and arbitrary strings: the implementation only ever receives values that
// an independently compiled (runtime) ajv accepts for the tool's schema, and `call` never throws.
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GuardedTool } from "../../templates/runtime/contract/api.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";
import { invoiceSpec, validInvoice } from "./invoice-spec.ts";

interface Bindable {
  readonly name: string;
  readonly inputSchema: JsonSchema;
  implement(implementation: (args: unknown) => unknown, options: object): GuardedTool<unknown>;
}

function runtimeValidator(schema: JsonSchema): (value: unknown) => boolean {
  const draft7 = String(schema["$schema"] ?? "").includes("draft-07");
  const ajv = draft7 ? new Ajv({ allErrors: true, strict: false, logger: false }) : new Ajv2020({ allErrors: true, strict: false, logger: false });
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  return ajv.compile(schema);
}

/** Values that are often almost right: the schema's own property names with arbitrary or stringly values. */
function argumentsFor(schema: JsonSchema, example?: Record<string, unknown>): fc.Arbitrary<unknown> {
  const names = Object.keys((schema["properties"] as object | undefined) ?? {});
  const stringly = fc.oneof(
    fc.constantFrom("1", "49.90", " 7 ", "1,299.00", "$5", "", "1e", "0x10", "true", "FALSE", "yes", "eur", "EUR", "2026-01-31", "1e400"),
    fc.integer().map(String),
    fc.double().map(String),
  );
  const field = fc.oneof(fc.jsonValue({ maxDepth: 3 }), stringly);
  const almost =
    names.length === 0 ? fc.jsonValue() : fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 5 })), field, { maxKeys: names.length + 2 });
  const nearExample = example
    ? fc.record(
        Object.fromEntries(
          Object.keys(example).map((key) => [key, fc.oneof({ arbitrary: fc.constant(example[key]), weight: 6 }, { arbitrary: field, weight: 1 })]),
        ),
      )
    : almost;
  return fc.oneof(fc.jsonValue(), almost, nearExample);
}

function raws(schema: JsonSchema, example?: Record<string, unknown>): fc.Arbitrary<unknown> {
  const value = argumentsFor(schema, example);
  return fc.oneof(
    value,
    value.map((v) => JSON.stringify(v)),
    value.map((v) => JSON.stringify(v, null, 2)),
    value.map((v) => JSON.stringify(v).slice(0, -3)),
    fc.string(),
    fc.string({ unit: "binary" }),
  );
}

async function checkTool(definition: Bindable, example?: Record<string, unknown>): Promise<void> {
  const accepts = runtimeValidator(definition.inputSchema);
  const received: unknown[] = [];
  const tool = definition.implement(
    (args) => {
      received.push(structuredClone(args));
      return "ok";
    },
    { ledger: new MemorySink(), resolvers: new Proxy({}, { get: () => () => [] }) },
  );
  let turn = 0;
  let reached = 0;
  await fc.assert(
    fc.asyncProperty(raws(definition.inputSchema, example), fc.option(fc.constantFrom("stop", "length")), async (raw, finishReason) => {
      received.length = 0;
      const outcome = await tool.call(raw, { turn: String(turn++), finishReason: finishReason ?? undefined });
      expect(["ok", "validation_failed", "arguments_rejected"]).toContain(outcome.status);
      for (const args of received) expect(accepts(args)).toBe(true);
      expect(received.length).toBe(outcome.status === "ok" ? 1 : 0);
      reached += received.length;
    }),
    { numRuns: 400 },
  );
  // Not vacuous: with a valid example to vary, some calls must get through.
  if (example) expect(reached).toBeGreaterThan(5);
}

describe("the boundary, over arbitrary input", () => {
  it("holds for the invoice tool (source runtime)", async () => {
    await checkTool(defineTool(invoiceSpec()) as unknown as Bindable, validInvoice);
  });

  it("holds for every shipped tool (generated package)", async () => {
    const generated = (await import("../../generated/index.js")) as unknown as { tools: Record<string, Bindable> };
    const tools = Object.values(generated.tools);
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) await checkTool(tool);
  });
});
