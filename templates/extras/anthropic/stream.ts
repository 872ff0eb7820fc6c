// A streamed Anthropic message, read to its end without parsing any tool call's text. The SDK's
// `messages.stream()` parses each `input_json_delta` as it arrives and throws on `partial_json`
// that is not JSON, before the adapter sees the call; a raw stream
// (`messages.create({ ..., stream: true })`) handed to `messageFromStream` gives the whole
// `Message` instead, for `answer`/`results` and the conversation history, with `stop_reason`
// (`max_tokens` when cut off). Each tool call's text is kept as streamed, so the guard reads the
// text itself (a single-quoted or cut-off call is explained as such), where a message that is not
// streamed only carries what the API could parse.
import type { Stream } from "@anthropic-ai/sdk/streaming";
import type { ContentBlock, Message, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { asEventStream } from "../../runtime/index.ts";

/** The argument text each streamed tool_use block was written with, for the guard. */
const STREAMED_INPUT = new WeakMap<object, string>();

/** The text a tool_use block was streamed with, when `messageFromStream` built it. */
export function streamedInput(block: object): string | undefined {
  return STREAMED_INPUT.get(block);
}

/** Options for reading a stream. */
export interface MessageStreamReading {
  /** Called with each event as it arrives (to show text as it streams). */
  readonly onEvent?: (event: RawMessageStreamEvent) => void;
}

/**
 * The `Message` a `client.messages.create({ ..., stream: true })` stream adds up to. A tool_use
 * block's `input` is its streamed text parsed, or `{}` when that text is not JSON (the history
 * must hold an object); the guard gets the text itself.
 */
export async function messageFromStream(
  stream: AsyncIterable<RawMessageStreamEvent> | Stream<RawMessageStreamEvent>,
  reading: MessageStreamReading = {},
): Promise<Message> {
  let message: Message | undefined;
  const texts: string[] = [];
  for await (const event of asEventStream<RawMessageStreamEvent>(stream, "messageFromStream", "client.messages.create")) {
    reading.onEvent?.(event);
    if (event.type === "message_start") message = { ...event.message, content: [] };
    else if (!message) continue;
    else if (event.type === "content_block_start") {
      message.content[event.index] = { ...event.content_block } as ContentBlock;
      texts[event.index] = "";
    } else if (event.type === "content_block_delta") {
      const block = message.content[event.index] as Record<string, unknown> | undefined;
      const { delta } = event;
      if (!block) continue;
      if (delta.type === "input_json_delta") texts[event.index] = (texts[event.index] ?? "") + delta.partial_json;
      else if (delta.type === "text_delta") block.text = `${String(block.text ?? "")}${delta.text}`;
      else if (delta.type === "thinking_delta") block.thinking = `${String(block.thinking ?? "")}${delta.thinking}`;
      else if (delta.type === "signature_delta") block.signature = delta.signature;
      else if (delta.type === "citations_delta") block.citations = [...((block.citations as unknown[] | null) ?? []), delta.citation];
    } else if (event.type === "message_delta") {
      message.stop_reason = event.delta.stop_reason;
      message.stop_sequence = event.delta.stop_sequence;
      const usage = Object.fromEntries(Object.entries(event.usage).filter(([, value]) => value !== null && value !== undefined));
      message.usage = { ...message.usage, ...usage };
    }
  }
  if (!message) throw new Error("toolguard: the Anthropic stream ended before its message_start event");
  for (const [index, block] of message.content.entries()) {
    if (block?.type !== "tool_use") continue;
    const text = texts[index] ?? "";
    // A call with no argument text at all streams none: its input is the start event's `{}`.
    if (text === "") continue;
    block.input = parsedOrEmpty(text);
    STREAMED_INPUT.set(block, text);
  }
  return message;
}

function parsedOrEmpty(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
