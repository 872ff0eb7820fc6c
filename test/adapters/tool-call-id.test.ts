// Every SDK adapter hands the provider's id of a tool call to the guard, so the call's span
// carries it as `gen_ai.tool.call.id` (a trace view then joins the model's request to the tool
// run). Checked with the real OpenTelemetry SDK (an in-memory span exporter) and the real SDKs
// against the scripted model on 127.0.0.1, through the README's loops, streamed and not: the id
// on the span is the one the model gave the call. MCP gives a call no id of its own; the span
// carries the JSON-RPC id of the `tools/call` request, read from what the real client sent.
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import OpenAI from "openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { aiSdkTurn } from "../../examples/adapters/ai-sdk.ts";
import { anthropicTurn } from "../../examples/adapters/anthropic.ts";
import { toolServer } from "../../examples/adapters/mcp-server.ts";
import { agentsTurn } from "../../examples/adapters/openai-agents.ts";
import { chatTurn } from "../../examples/adapters/openai-chat.ts";
import { responsesTurn } from "../../examples/adapters/openai-responses.ts";
import { serveGuardedTools } from "../../generated/extras/mcp/index.js";
import { MemoryChainCounter } from "../../generated/index.js";
import { startFakeModel, type FakeModel, type Step, type Wire } from "./fake-model-server.ts";
import { CUT_OFF, INVALID, invoiceBench, TOOL, VALID, type InvoiceBench } from "./invoice-script.ts";

let spans: InMemorySpanExporter;
beforeEach(() => {
  spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }));
});
afterEach(() => trace.disable());

/** The `gen_ai.tool.call.id` of each tool span, in the order the calls ran. */
function spanCallIds(): unknown[] {
  return toolSpans().map((span) => span.attributes["gen_ai.tool.call.id"]);
}

function toolSpans() {
  return spans.getFinishedSpans().filter((span) => span.name === `execute_tool ${TOOL}`);
}

const models = new Map<Wire, FakeModel>();
async function model(wire: Wire): Promise<FakeModel> {
  let fake = models.get(wire);
  if (fake === undefined) models.set(wire, (fake = await startFakeModel(wire)));
  return fake;
}
afterAll(() => Promise.all([...models.values()].map((fake) => fake.close())));

/** A valid call then a cut-off one, each with an id no default would produce, then the answer. */
function script(prefix: string): { steps: Step[]; ids: string[] } {
  const ids = [`${prefix}_valid_8f3a`, `${prefix}_cut_off_2c91`];
  return {
    steps: [{ tool: TOOL, args: VALID, callId: ids[0] }, { tool: TOOL, args: CUT_OFF, cutOff: true, callId: ids[1] }, { text: "Done." }],
    ids,
  };
}

type Loop = (fake: FakeModel, bench: InvoiceBench, turn: string, stream: boolean) => Promise<unknown>;

const loops: Record<string, { wire: Wire; run: Loop }> = {
  "Vercel AI SDK (execute, and answerCutOffStep)": {
    wire: "chat",
    run: (fake, bench, turn, stream) =>
      aiSdkTurn(createOpenAI({ baseURL: fake.baseURL, apiKey: "test" }).chat("gpt-5"), [bench.tool], "Invoice Acme BV", turn, stream),
  },
  "Anthropic Messages": {
    wire: "anthropic",
    run: (fake, bench, turn, stream) =>
      anthropicTurn(
        new Anthropic({ baseURL: fake.baseURL.replace(/\/v1$/, ""), apiKey: "test", maxRetries: 0 }),
        [bench.tool],
        "Invoice Acme BV",
        turn,
        stream,
      ),
  },
  "OpenAI Chat Completions": {
    wire: "chat",
    run: (fake, bench, turn, stream) =>
      chatTurn(new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 }), [bench.tool], "Invoice Acme BV", turn, stream),
  },
  "OpenAI Responses": {
    wire: "responses",
    run: (fake, bench, turn, stream) =>
      responsesTurn(new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 }), [bench.tool], "Invoice Acme BV", turn, stream),
  },
  "OpenAI Agents (Responses, through guardModelProvider)": {
    wire: "responses",
    run: (fake, bench, _turn, stream) =>
      agentsTurn(new OpenAI({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 0 }), [bench.tool], "Invoice Acme BV", stream),
  },
};

describe.each(Object.entries(loops))("%s", (name, { wire, run }) => {
  it.each([false, true])("sets gen_ai.tool.call.id to the id the model gave each call, the cut-off one too (streamed: %s)", async (stream) => {
    const fake = await model(wire);
    const bench = invoiceBench();
    const { steps, ids } = script(`${wire}_${stream ? "s" : "n"}`);
    fake.play(steps);
    await run(fake, bench, `t-${name}-${stream}`, stream);
    // Both calls ran through the guard (ok, then read as cut off) and each span names its own call.
    expect(toolSpans().map((span) => span.attributes["toolguard.outcome"])).toEqual(["ok", "validation_failed"]);
    expect(spanCallIds()).toEqual(ids);
  });
});

/** A real client of `server` (default: the README's), with the ids of the tools/call requests it sends. */
async function mcpClient(bench: InvoiceBench, server: McpServer = toolServer([bench.tool])): Promise<{ client: Client; sent: unknown[] }> {
  const client = new Client({ name: "test-host", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // The ids the real client put on its tools/call requests, as they went over the wire.
  const sent: unknown[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message: JSONRPCMessage, options) => {
    if ("method" in message && message.method === "tools/call" && "id" in message) sent.push(message.id);
    return send(message, options);
  };
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, sent };
}

describe("MCP server (no tool call id in MCP: the tools/call request's JSON-RPC id)", () => {
  it.each([
    ["two valid calls", [VALID, VALID], [0, 1]],
    // The third call is judged in the refused chain, then run again in a new one: two spans, one request.
    ["a valid call after a refusal, run again in a new chain", [INVALID, INVALID, VALID], [0, 1, 2, 2]],
  ])("sets gen_ai.tool.call.id to the id of the tools/call request: %s", async (_name, calls, spanOf) => {
    const bench = invoiceBench();
    const { client, sent } = await mcpClient(bench);
    try {
      for (const args of calls) await client.callTool({ name: TOOL, arguments: JSON.parse(args) as Record<string, unknown> });
    } finally {
      await client.close();
    }
    expect(new Set(sent).size).toBe(calls.length);
    expect(spanCallIds()).toEqual(spanOf.map((index) => String(sent[index])));
  });

  it("keeps the request's id on a failure judged again after another replica closed the shared chain", async () => {
    const bench = invoiceBench();
    const chains = new MemoryChainCounter();
    const server = new McpServer({ name: "t", version: "1.0.0" });
    serveGuardedTools(server, [bench.tool], { chains, identity: () => "user-1" });
    const { client, sent } = await mcpClient(bench, server);
    try {
      await client.callTool({ name: TOOL, arguments: JSON.parse(INVALID) as Record<string, unknown> });
      // What a success on another replica does to the shared chain of this caller and tool.
      chains.close(JSON.stringify(["id:user-1", TOOL])); // the adapter's key: caller (caller.ts) and tool
      await client.callTool({ name: TOOL, arguments: JSON.parse(INVALID) as Record<string, unknown> });
    } finally {
      await client.close();
    }
    // The second call: judged in this process's stale chain, then again as a new chain's first.
    expect(toolSpans().map((span) => span.attributes["toolguard.attempts"])).toEqual([1, 2, 1]);
    expect(spanCallIds()).toEqual([String(sent[0]), String(sent[1]), String(sent[1])]);
  });
});
