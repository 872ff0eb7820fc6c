// A model provider on 127.0.0.1 that plays a script, speaking the wire format the real SDKs
// expect: OpenAI Chat Completions (`/v1/chat/completions`), OpenAI Responses (`/v1/responses`)
// and Anthropic Messages (`/v1/messages`). Each request takes the next step of the script: a
// tool call (its argument text exactly as a model would write it, possibly cut off) or a final
// text. Every request body is kept, so a test can read what the model got back. A request with
// `stream: true` gets the same reply as a stream of events in that provider's streaming format
// (fake-model-stream.ts); an Anthropic stream carries a call's text as written, not parsed.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicEvents, chatChunks, responsesEvents } from "./fake-model-stream.ts";

export type Wire = "chat" | "responses" | "anthropic";

/**
 * One model turn: call `tool` with `args` (raw text), or say `text`. `callId` is the id the
 * provider gives the call (default: `call_N`/`toolu_N`, N counting the server's replies).
 */
export type Step = { readonly tool: string; readonly args: string; readonly cutOff?: boolean; readonly callId?: string } | { readonly text: string };

export interface FakeModel {
  readonly baseURL: string;
  /** Request bodies in order. */
  readonly requests: Record<string, unknown>[];
  /** Replaces the script; each request takes the next step (the last repeats). */
  play(steps: readonly Step[]): void;
  /** The tool results sent back to the model, in order, as the text the model reads. */
  toolResults(): string[];
  close(): Promise<void>;
}

export async function startFakeModel(wire: Wire): Promise<FakeModel> {
  const requests: Record<string, unknown>[] = [];
  let script: readonly Step[] = [];
  let next = 0;
  // Call ids stay unique across scripts, as a provider's are.
  let served = 0;
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    requests.push(body);
    const step = script[Math.min(next++, script.length - 1)] ?? { text: "(no script)" };
    const id = ++served;
    const reply = wire === "chat" ? chatReply(step, id) : wire === "responses" ? responsesReply(step, id) : anthropicReply(step, id);
    if (body.stream === true) {
      const events = reply as Record<string, unknown>;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        wire === "chat"
          ? chatChunks(events)
          : wire === "responses"
            ? responsesEvents(events)
            : anthropicEvents(events, ["tool" in step ? step.args : undefined]),
      );
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    play(steps) {
      script = steps;
      next = 0;
      requests.length = 0;
    },
    // Chat and Anthropic resend the whole conversation; a Responses loop that chains
    // `previous_response_id` sends only the new outputs, so those are gathered from every request.
    toolResults: () => (wire === "responses" ? responsesOutputs(requests) : toolResults(wire, requests.at(-1))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}

const USAGE_CHAT = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

function chatReply(step: Step, index: number): unknown {
  const message =
    "tool" in step
      ? {
          role: "assistant",
          content: null,
          tool_calls: [{ id: step.callId ?? `call_${index}`, type: "function", function: { name: step.tool, arguments: step.args } }],
        }
      : { role: "assistant", content: step.text };
  const finish = "tool" in step ? (step.cutOff ? "length" : "tool_calls") : "stop";
  return {
    id: `chatcmpl-${index}`,
    object: "chat.completion",
    created: 1,
    model: "fake",
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: USAGE_CHAT,
  };
}

function responsesReply(step: Step, index: number): unknown {
  const output =
    "tool" in step
      ? [
          {
            type: "function_call",
            id: `fc_${index}`,
            call_id: step.callId ?? `call_${index}`,
            name: step.tool,
            arguments: step.args,
            status: step.cutOff ? "incomplete" : "completed",
          },
        ]
      : [{ type: "message", id: `msg_${index}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] }];
  const cutOff = "tool" in step && step.cutOff === true;
  return {
    id: `resp_${index}`,
    object: "response",
    created_at: 1,
    model: "fake",
    status: cutOff ? "incomplete" : "completed",
    incomplete_details: cutOff ? { reason: "max_output_tokens" } : null,
    error: null,
    output,
    output_text: "text" in step ? step.text : "",
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: 10,
      output_tokens: 10,
      total_tokens: 20,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

function anthropicReply(step: Step, index: number): unknown {
  // Anthropic hands over `input` parsed; a cut-off call arrives as whatever the API could parse.
  const content =
    "tool" in step
      ? [{ type: "tool_use", id: step.callId ?? `toolu_${index}`, name: step.tool, input: parseOr(step.args) }]
      : [{ type: "text", text: step.text }];
  const stop = "tool" in step ? (step.cutOff ? "max_tokens" : "tool_use") : "end_turn";
  return {
    id: `msg_${index}`,
    type: "message",
    role: "assistant",
    model: "fake",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** What the last request carried back to the model as tool results. */
function toolResults(wire: Wire, body: Record<string, unknown> | undefined): string[] {
  if (!body) return [];
  if (wire === "chat") {
    return (body.messages as { role: string; content: unknown }[]).filter((message) => message.role === "tool").map((message) => textOf(message.content));
  }
  if (wire === "responses") {
    const input = Array.isArray(body.input) ? (body.input as { type?: string; output?: unknown }[]) : [];
    return input.filter((item) => item.type === "function_call_output").map((item) => textOf(item.output));
  }
  const results: string[] = [];
  for (const message of body.messages as { role: string; content: unknown }[]) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type: string; content?: unknown }[]) if (block.type === "tool_result") results.push(textOf(block.content));
  }
  return results;
}

/** A tool result's text, whether sent as a string or as content parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? "").join("");
  return JSON.stringify(content);
}

/** Every `function_call_output` sent in any request, once per call id, in order. */
function responsesOutputs(requests: readonly Record<string, unknown>[]): string[] {
  const seen = new Map<unknown, string>();
  for (const body of requests) {
    const input = Array.isArray(body.input) ? (body.input as { type?: string; call_id?: unknown; output?: unknown }[]) : [];
    for (const item of input) if (item.type === "function_call_output" && !seen.has(item.call_id)) seen.set(item.call_id, textOf(item.output));
  }
  return [...seen.values()];
}
