// Streamed OpenAI Agents runs (`run(agent, input, { stream: true })`) through the provider
// wrapper, with the real `@openai/agents` against the fake model on 127.0.0.1 speaking the
// Responses and Chat Completions streaming wire formats: text that is not JSON and a cut-off
// answer reach the guard as in a non-streamed run. Also: what the wrapper says when the SDK
// internal it relies on is gone.
import { Agent, OpenAIProvider, Runner } from "@openai/agents";
import { readFileSync } from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentsTools, guardModelProvider, TERMINAL_CHECK, TESTED_AGENTS_VERSION } from "../../generated/extras/openai-agents/index.js";
import { REPO } from "../helpers/temp-project.ts";
import { type FakeModel, startFakeModel } from "./fake-model-server.ts";
import { CUT_OFF, INVALID_ENVELOPE, INVALID, invoiceBench, NOT_JSON, REFUSAL, TOOL, VALID } from "./invoice-script.ts";

type Bench = ReturnType<typeof invoiceBench>;

/** One streamed run, read to its end as a streaming UI would; its final output. */
async function streamedRun(client: OpenAI, bench: Bench, options: { responses: boolean; wrapped?: boolean }): Promise<unknown> {
  const provider = new OpenAIProvider({ openAIClient: client, useResponses: options.responses });
  const runner = new Runner({ modelProvider: options.wrapped === false ? provider : guardModelProvider(provider), tracingDisabled: true });
  const agent = new Agent({ name: "billing", model: "gpt-5", tools: agentsTools([bench.tool]) });
  const result = await runner.run(agent, "Invoice Acme BV", { maxTurns: 8, stream: true });
  for await (const _event of result) {
    // consumed as a UI would
  }
  await result.completed;
  return result.finalOutput;
}

describe("streamed runs on the Responses model", () => {
  let fake: FakeModel;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeModel("responses");
    client = new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 });
  });
  afterAll(() => fake.close());

  it("repairs the invoice on the second call, the model streaming", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await streamedRun(client, bench, { responses: true })).toBe("Done.");
    expect(fake.requests.every((body) => body.stream === true)).toBe(true);
    expect(JSON.parse(fake.toolResults()[0] ?? "")).toEqual(INVALID_ENVELOPE);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", repairs: 1 }]);
  });

  it("refuses a model that never gets it right, after one repair, as a run that is not streamed does", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: INVALID }, { tool: TOOL, args: INVALID }, { text: "I need the amount." }]);
    expect(await streamedRun(client, bench, { responses: true })).toBe("I need the amount.");
    expect(fake.toolResults().map((text) => JSON.parse(text))).toEqual([INVALID_ENVELOPE, REFUSAL]);
    expect(bench.received).toEqual([]);
    expect(bench.chains()).toMatchObject([{ verdict: "rejected", repairs: 1 }]);
  });

  it("hands text that is not JSON to the guard instead of the SDK's fixed reply", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await streamedRun(client, bench, { responses: true })).toBe("Done.");
    expect(JSON.parse(fake.toolResults()[0] ?? "")).toMatchObject({ status: "validation_failed", errors: [{ rule: "single_quotes" }] });
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: NOT_JSON, failure: "syntactic" }, { raw: VALID }] }]);
    // The model is shown its own text in the history, not the wrapper the runner carried.
    const replayed = ((fake.requests[1]?.input ?? []) as { type: string; arguments?: string }[]).find((item) => item.type === "function_call");
    expect(replayed?.arguments).toBe(NOT_JSON);
  });

  it("without the wrapper, a streamed run gets the SDK's fixed reply and the guard never sees the text", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    await streamedRun(client, bench, { responses: true, wrapped: false });
    expect(fake.toolResults()[0]).toBe("An error occurred while parsing tool arguments. Please try again with valid JSON.");
    expect(bench.chains()).toMatchObject([{ verdict: "ok", attempts: [{ raw: VALID }] }]);
  });

  it("reads a stream that ends response.incomplete (max_output_tokens) as cut off instead of failing the run", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await streamedRun(client, bench, { responses: true })).toBe("Done.");
    expect(JSON.parse(fake.toolResults()[0] ?? "")).toMatchObject({ status: "validation_failed", errors: [{ rule: "truncated" }], repairsLeft: 2 });
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: CUT_OFF, finishReason: "max_output_tokens" }, { raw: VALID }] }]);
  });
});

describe("streamed runs on the Chat Completions model", () => {
  let fake: FakeModel;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeModel("chat");
    client = new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 });
  });
  afterAll(() => fake.close());

  it("hands text that is not JSON to the guard", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: NOT_JSON }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await streamedRun(client, bench, { responses: false })).toBe("Done.");
    expect(fake.requests[0]?.stream).toBe(true);
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: NOT_JSON, failure: "syntactic" }, { raw: VALID }] }]);
  });

  it("passes a streamed finish_reason length on as cut off", async () => {
    const bench = invoiceBench();
    fake.play([{ tool: TOOL, args: CUT_OFF, cutOff: true }, { tool: TOOL, args: VALID }, { text: "Done." }]);
    expect(await streamedRun(client, bench, { responses: false })).toBe("Done.");
    expect(bench.chains()).toMatchObject([{ verdict: "repaired", attempts: [{ raw: CUT_OFF, finishReason: "length" }, { raw: VALID }] }]);
  });
});

describe("the SDK internal the wrapper relies on", () => {
  it("names the tested @openai/agents version, which is the one installed", () => {
    const installed = JSON.parse(readFileSync(path.join(REPO, "node_modules/@openai/agents/package.json"), "utf8")).version;
    expect(TESTED_AGENTS_VERSION).toBe(installed);
  });

  it("gone: getModel fails saying which method, what for, and which version was tested", async () => {
    const client = new OpenAI({ baseURL: "http://127.0.0.1:9/v1", apiKey: "test", maxRetries: 0 });
    const model = await new OpenAIProvider({ openAIClient: client, useResponses: true }).getModel("gpt-5");
    // As if a later SDK had moved the method.
    Object.defineProperty(model, TERMINAL_CHECK, { value: undefined });
    const wrapped = guardModelProvider({ getModel: async () => model });
    const expected =
      `toolguard: guardModelProvider cannot wrap this @openai/agents Responses model (${model.constructor.name}): it has no method ${TERMINAL_CHECK}, ` +
      `the SDK internal the wrapper replaces so that an answer cut off by max_output_tokens reaches the guard instead of failing the run. ` +
      `guardModelProvider was tested with @openai/agents ${TESTED_AGENTS_VERSION}`;
    await expect(wrapped.getModel()).rejects.toThrow(expected);
    // It stays refused: a second attempt does not find the model half wrapped.
    await expect(wrapped.getModel()).rejects.toThrow(expected);
  });
});
