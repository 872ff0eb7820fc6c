// The OpenAI adapter with the real `openai` SDK against a scripted model on 127.0.0.1, through
// the README's two agent loops (examples/adapters/openai-chat.ts, openai-responses.ts), each
// streamed and not (the fake model then speaks the provider's SSE format): the brief's invoice
// repaired on the second call, a model that never gets it right refused after one repair, one
// that will not stop after the refusal, text that is not JSON, output cut off at the token limit,
// an unknown tool, and a strict-mode call whose nulls stand for omitted fields. Streamed and not,
// every outcome is the same.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatTurn } from "../../examples/adapters/openai-chat.ts";
import { responsesTurn } from "../../examples/adapters/openai-responses.ts";
import { startFakeModel, type FakeModel, type Wire } from "./fake-model-server.ts";
import { CUT_OFF, INVALID, INVALID_ENVELOPE, invoiceBench, NOT_JSON, okOutcome, RECEIVED, REFUSAL, TOOL, VALID, VALID_STRICT } from "./invoice-script.ts";

const loops: Record<"chat" | "responses", typeof chatTurn | typeof responsesTurn> = { chat: chatTurn, responses: responsesTurn };

describe.each([
  ["chat", false],
  ["chat", true],
  ["responses", false],
  ["responses", true],
] as const)("OpenAI %s (streamed: %s) through the adapter", (wire: Wire & keyof typeof loops, stream: boolean) => {
  let fake: FakeModel;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeModel(wire);
    client = new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 });
  });
  afterAll(() => fake.close());
  const turn = async (bench: ReturnType<typeof invoiceBench>, name: string) => {
    const answer = await loops[wire](client, [bench.tool], "Invoice Acme BV for 1299 euro", name, stream);
    expect(fake.requests.map((body) => body.stream === true)).toEqual(fake.requests.map(() => stream));
    return answer;
  };

  it("repairs the brief's invoice on the second call", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await turn(bench, "t-repair")).toBe("Done.");
    expect(bench.received).toEqual([RECEIVED]);
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, okOutcome(2, expect.any(String))]);
    expect(bench.chains()).toMatchObject([
      { tool: TOOL, turn: "t-repair", verdict: "repaired", repairs: 1, attempts: [{ raw: INVALID }, { raw: VALID, coercions: [] }] },
    ]);
  });

  it("refuses a model that never gets it right, after one repair", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: INVALID }, { text: "I need the amount." }]);
    expect(await turn(bench, "t-refuse")).toBe("I need the amount.");
    expect(bench.received).toEqual([]);
    expect(fake.requests).toHaveLength(3);
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, REFUSAL]);
    expect(bench.chains()).toMatchObject([{ verdict: "rejected", repairs: 1, attempts: [{ raw: INVALID }, { raw: INVALID }] }]);
  });

  it("ends the turn with the refusal when the model will not stop, never calling past it", async () => {
    const bench = invoiceBench();
    // The last step repeats: the model calls again and again, ignoring "Do not retry".
    fake.play([
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: VALID },
    ]);
    const answer = await turn(bench, "t-stubborn");
    expect(JSON.parse(answer ?? "")).toMatchObject({ status: "arguments_rejected", tool: TOOL });
    // Two refusals shown, then the third call's refusal ends the turn: no fourth request.
    expect(fake.requests).toHaveLength(3);
    expect(bench.received).toEqual([]);
    expect(bench.chains()).toMatchObject([{ verdict: "rejected", repairs: 1 }]);
  });

  it("explains text that is not JSON, and counts it", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    await turn(bench, "t-text");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", failure: "syntactic", errors: [{ rule: "single_quotes" }], repairsLeft: 1 });
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: NOT_JSON, failure: "syntactic" }, { raw: VALID }] }]);
  });

  it("reads output cut off at the token limit as truncated, with a second repair", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    await turn(bench, "t-cut");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", failure: "syntactic", errors: [{ rule: "truncated" }], repairsLeft: 2 });
    expect(first.detail).toContain("cut off");
    expect(bench.chains()).toMatchObject([
      { verdict: "repaired", attempts: [{ raw: CUT_OFF, finishReason: wire === "chat" ? "length" : "max_output_tokens" }, { raw: VALID }] },
    ]);
  });

  it("answers an unknown tool with the tools the model may call", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: "create_invoices", args: VALID }, { text: "Sorry." }]);
    await turn(bench, "t-unknown");
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([
      {
        status: "unknown_tool",
        tool: "create_invoices",
        available: [TOOL],
        detail: 'There is no tool named "create_invoices". Call one of: "create_invoice".',
      },
    ]);
    expect(bench.chains()).toEqual([]);
  });

  it("sends the strict variant, and drops exactly the nulls it implies before validating", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: VALID_STRICT }, { text: "Done." }]);
    await turn(bench, "t-strict");
    const sent = ((fake.requests[0]?.tools ?? []) as Record<string, unknown>[])[0] as Record<string, unknown>;
    const definition = (wire === "chat" ? sent.function : sent) as { strict: boolean; parameters: { required: string[]; properties: Record<string, unknown> } };
    expect(definition.strict).toBe(true);
    expect(definition.parameters.required).toEqual(["amount", "currency", "customer_ref", "due_date", "line_items", "memo"]);
    expect(definition.parameters.properties.memo).toEqual({
      type: ["string", "null"],
      description: "Free text printed on the invoice. Send null to leave it out.",
    });
    // Strict mode requires the field: the author's "omit it" is said as strict mode asks.
    expect(definition.parameters.properties.due_date).toMatchObject({
      description: "Payment due date (YYYY-MM-DD). Optional: send null for the customer's standard terms.",
    });
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "ok", attempts: [{ raw: VALID_STRICT, absent: ["/due_date", "/memo"] }], arguments: { amount: 1299 } }]);
    expect(bench.chains()[0]?.arguments).not.toHaveProperty("memo");
  });
});
