// The AI SDK adapter with the real `ai` 7 and `@ai-sdk/openai` (Chat Completions) against a
// scripted model on 127.0.0.1, through the README's loop (examples/adapters/ai-sdk.ts), with
// `generateText` and with `streamText` (the fake model streaming Chat Completions chunks): the
// same outcomes either way. Text that is not JSON goes through `repairToolCall` to the guard; a
// step cut off on `length`, which the SDK never executes, is answered by `answerCutOffStep`; a
// model that will not stop after a refusal ends the turn with it (`stopOnRepeatedRefusal`).
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiSdkTurn as turnOf } from "../../examples/adapters/ai-sdk.ts";
import { startFakeModel, type FakeModel } from "./fake-model-server.ts";
import { CUT_OFF, INVALID, INVALID_ENVELOPE, invoiceBench, NOT_JSON, okOutcome, RECEIVED, REFUSAL, TOOL, VALID } from "./invoice-script.ts";

let fake: FakeModel;
let model: LanguageModel;
beforeAll(async () => {
  fake = await startFakeModel("chat");
  model = createOpenAI({ baseURL: fake.baseURL, apiKey: "test" }).chat("gpt-5");
});
afterAll(() => fake.close());

describe.each([false, true])("Vercel AI SDK (streamText: %s) through the adapter", (stream) => {
  const aiSdkTurn = async (...args: [LanguageModel, Parameters<typeof turnOf>[1], string, string]) => {
    const answer = await turnOf(...args, stream);
    expect(fake.requests.map((body) => body.stream === true)).toEqual(fake.requests.map(() => stream));
    return answer;
  };

  it("ends the turn with the refusal when the model will not stop", async () => {
    const bench = invoiceBench();
    fake.play([
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: INVALID },
      { tool: TOOL, args: VALID },
    ]);
    const answer = await aiSdkTurn(model, [bench.tool], "Invoice Acme BV", "s-stubborn");
    expect(JSON.parse(answer)).toMatchObject({ status: "arguments_rejected", tool: TOOL });
    expect(fake.requests).toHaveLength(3);
    expect(bench.received).toEqual([]);
  });

  it("repairs the brief's invoice on the second call", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await aiSdkTurn(model, [bench.tool], "Invoice Acme BV for 1299 euro", "s-repair")).toBe("Done.");
    expect(bench.received).toEqual([RECEIVED]);
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, okOutcome(2, expect.any(String))]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", repairs: 1, attempts: [{ raw: JSON.stringify(JSON.parse(INVALID)) }, { coercions: [] }] }]);
  });

  it("refuses a model that never gets it right, after one repair", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: INVALID }, { text: "I need the amount." }]);
    expect(await aiSdkTurn(model, [bench.tool], "Invoice Acme BV", "s-refuse")).toBe("I need the amount.");
    expect(bench.received).toEqual([]);
    expect(fake.requests).toHaveLength(3);
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, REFUSAL]);
    expect(bench.chains()).toMatchObject([{ verdict: "rejected", repairs: 1 }]);
  });

  it("hands text that is not JSON to the guard, which explains and counts it", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    await aiSdkTurn(model, [bench.tool], "Invoice Acme BV", "s-text");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", failure: "syntactic", errors: [{ rule: "single_quotes" }], repairsLeft: 1 });
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: NOT_JSON, failure: "syntactic" }, {}] }]);
  });

  it("answers a step cut off on length, which the SDK does not execute, through the guard", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await aiSdkTurn(model, [bench.tool], "Invoice Acme BV", "s-cut")).toBe("Done.");
    const [first] = fake.toolResults().map((text) => JSON.parse(text));
    expect(first).toMatchObject({ status: "validation_failed", failure: "syntactic", errors: [{ rule: "truncated" }], repairsLeft: 2 });
    expect(bench.received).toEqual([RECEIVED]);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: CUT_OFF, finishReason: "length" }, {}] }]);
  });

  it("leaves an unknown tool to the SDK, whose error result lists the tools", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: "create_invoices", args: VALID }, { text: "Sorry." }]);
    await aiSdkTurn(model, [bench.tool], "Invoice Acme BV", "s-unknown");
    const [result] = fake.toolResults();
    expect(result).toContain("create_invoices");
    expect(result).toContain("Available tools: create_invoice");
    expect(bench.chains()).toEqual([]);
  });
});
