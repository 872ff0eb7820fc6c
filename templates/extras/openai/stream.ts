// Streamed OpenAI answers, read to their end without parsing any call's text, so the guard sees
// what the model wrote. The SDK's own helpers parse first: `chat.completions.stream()` with a
// strict tool (what `strict: "auto"` sends) throws `LengthFinishReasonError` on a cut-off answer
// and "invalid structured output JSON" on text that is not JSON, and `responses.stream()` throws
// the same on text that is not JSON, all before the adapter could explain or count them. Stream
// with `create({ ..., stream: true })` instead and hand the stream to these: each returns the
// whole answer (a `ChatCompletion`, a `Response`) for `answerChat`/`answerResponse`, finish
// reason included. `onEvent` sees every chunk or event on the way, for a streaming UI.
import type { Stream } from "openai/streaming";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageFunctionToolCall } from "openai/resources/chat/completions";
import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import { asEventStream } from "../../runtime/index.ts";

/** Options for reading a stream. */
export interface StreamReading<Event> {
  /** Called with each chunk or event as it arrives (to show text as it streams). */
  readonly onEvent?: (event: Event) => void;
}

/**
 * The Chat Completion a `client.chat.completions.create({ ..., stream: true })` stream adds up to:
 * the text, each tool call with its argument text exactly as streamed (never parsed), and the
 * finish reason (`length` when cut off), for `answerChat` and the conversation history.
 */
export async function chatCompletionFromStream(
  stream: AsyncIterable<ChatCompletionChunk> | Stream<ChatCompletionChunk>,
  reading: StreamReading<ChatCompletionChunk> = {},
): Promise<ChatCompletion> {
  let head: ChatCompletionChunk | undefined;
  let content: string | null = null;
  let refusal: string | null = null;
  let finish: ChatCompletion.Choice["finish_reason"] | null = null;
  let usage: ChatCompletion["usage"];
  const calls: ChatCompletionMessageFunctionToolCall[] = [];
  for await (const chunk of asEventStream<ChatCompletionChunk>(stream, "chatCompletionFromStream", "client.chat.completions.create")) {
    reading.onEvent?.(chunk);
    head ??= chunk;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices.find((entry) => entry.index === 0);
    if (!choice) continue;
    if (typeof choice.delta.content === "string") content = (content ?? "") + choice.delta.content;
    if (typeof choice.delta.refusal === "string") refusal = (refusal ?? "") + choice.delta.refusal;
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = (calls[delta.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
      if (delta.id) call.id = delta.id;
      call.function.name += delta.function?.name ?? "";
      call.function.arguments += delta.function?.arguments ?? "";
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  if (!head) throw new Error("toolguard: the Chat Completions stream ended before its first chunk");
  const toolCalls = calls.filter((call) => call !== undefined);
  return {
    id: head.id,
    object: "chat.completion",
    created: head.created,
    model: head.model,
    choices: [
      {
        index: 0,
        // A stream cut before its last chunk (no finish reason) was not finished: read it as cut off.
        finish_reason: finish ?? "length",
        logprobs: null,
        message: { role: "assistant", content, refusal, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
      },
    ],
    ...(usage && { usage }),
  };
}

/**
 * The Response a `client.responses.create({ ..., stream: true })` stream ends with (its
 * `response.completed`, `response.incomplete` or `response.failed` event), for `answerResponse`:
 * each function call's argument text as the model wrote it, and `incomplete_details` when cut
 * off. `output_text` is filled in, as the SDK does for a response that is not streamed.
 */
export async function responseFromStream(
  stream: AsyncIterable<ResponseStreamEvent> | Stream<ResponseStreamEvent>,
  reading: StreamReading<ResponseStreamEvent> = {},
): Promise<Response> {
  let last: Response | undefined;
  for await (const event of asEventStream<ResponseStreamEvent>(stream, "responseFromStream", "client.responses.create")) {
    reading.onEvent?.(event);
    if (event.type === "response.completed" || event.type === "response.incomplete" || event.type === "response.failed") last = event.response;
  }
  if (!last) throw new Error("toolguard: the Responses stream ended without its final event (response.completed, response.incomplete or response.failed)");
  const text = last.output.flatMap((item) => (item.type === "message" ? item.content : [])).map((part) => (part.type === "output_text" ? part.text : ""));
  return { ...last, output_text: text.join("") };
}
