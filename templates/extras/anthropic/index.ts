// Anthropic adapter (`@anthropic-ai/sdk`, Messages API): tool definitions, and the user message
// of `tool_result` blocks answering a message's `tool_use` blocks. The SDK hands over `input`
// already parsed, so the guard re-checks it as JSON (duplicate keys and other hazards are then
// invisible); a message that stopped on `max_tokens` marks its calls as cut off. A message read
// from a stream by `messageFromStream` (stream.ts) carries each call's text as streamed, and the
// guard reads that text instead.
import type { Message, MessageParam, Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { isErrorResult, ToolRouter, toolResultText, type DescribedTool } from "../../runtime/index.ts";
import { streamedInput } from "./stream.ts";

/** Which conversation turn the calls belong to (the same for every call while answering one user message). */
export interface AnthropicTurn {
  readonly turn: string;
  readonly signal?: AbortSignal;
}

/** Guarded tools as Anthropic sees them; build once and reuse for every request. */
export class AnthropicTools {
  /** For `client.messages.create({ tools })`. */
  readonly definitions: Tool[];
  readonly #router: ToolRouter;

  constructor(tools: readonly DescribedTool[]) {
    this.#router = new ToolRouter(tools);
    this.definitions = tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
  }

  /** One `tool_result` block per `tool_use` block of `message`, in order; `is_error` unless the call succeeded. */
  async results(message: Message, turn: AnthropicTurn): Promise<ToolResultBlockParam[]> {
    const finishReason = message.stop_reason ?? undefined;
    const blocks: ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      const tool = this.#router.get(block.name);
      const raw = streamedInput(block) ?? block.input;
      const outcome = tool
        ? await tool.call(raw, { turn: turn.turn, finishReason, signal: turn.signal, toolCallId: block.id })
        : this.#router.unknown(block.name);
      blocks.push({ type: "tool_result", tool_use_id: block.id, content: toolResultText(outcome), is_error: isErrorResult(outcome) });
    }
    return blocks;
  }

  /** The user message answering `message`'s tool calls, ready to append to `messages`. */
  async answer(message: Message, turn: AnthropicTurn): Promise<MessageParam> {
    return { role: "user", content: await this.results(message, turn) };
  }
}

/** Guarded tools for the Anthropic SDK (Messages API). */
export function anthropicTools(tools: readonly DescribedTool[]): AnthropicTools {
  return new AnthropicTools(tools);
}

export { messageFromStream, type MessageStreamReading } from "./stream.ts";
