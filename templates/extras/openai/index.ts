// OpenAI adapter (the `openai` SDK): tool definitions for Chat Completions and for the Responses
// API, and the tool results for the calls in a completion or a response. Each definition uses
// the tool's own schema, or with `strict` its strict variant (providers/strict-schema.ts); the
// calls are then guarded with the matching `absentNulls`, so the guard validates what the model
// meant against the tool's own schema either way. A streamed answer is read whole, without
// parsing any call, by `chatCompletionFromStream`/`responseFromStream` (stream.ts).
import type { ChatCompletion, ChatCompletionFunctionTool, ChatCompletionToolMessageParam } from "openai/resources/chat/completions";
import type { FunctionTool, Response, ResponseInputItem } from "openai/resources/responses/responses";
import {
  chooseStrictness,
  ToolRouter,
  toolResultText,
  type DescribedTool,
  type InputSchema,
  type Outcome,
  type UnknownToolOutcome,
} from "../../runtime/index.ts";

export interface OpenAiToolsOptions {
  /**
   * Send tools with `strict: true`, constraining the model's output to the schema.
   * `false` (default): the tool's own schema, not strict. `true`: every tool strict; a tool
   * whose schema cannot be strict throws here, with why. `"auto"`: strict where the schema
   * allows it. The generator prints, per tool, what strict mode loosens or blocks.
   */
  readonly strict?: boolean | "auto";
}

/** Which conversation turn the calls belong to (the same for every call while answering one user message). */
export interface OpenAiTurn {
  readonly turn: string;
  readonly signal?: AbortSignal;
}

/** How one tool is shown to the model, and how its calls are guarded accordingly. */
interface Shown {
  readonly tool: DescribedTool;
  readonly parameters: InputSchema;
  readonly strict: boolean;
  readonly absentNulls: readonly string[] | undefined;
}

/** Guarded tools as OpenAI sees them; build once and reuse for every request. */
export class OpenAiTools {
  /** For `client.chat.completions.create({ tools })`. */
  readonly chat: ChatCompletionFunctionTool[];
  /** For `client.responses.create({ tools })`. */
  readonly responses: FunctionTool[];
  readonly #router: ToolRouter;
  readonly #shown: ReadonlyMap<string, Shown>;

  constructor(tools: readonly DescribedTool[], options: OpenAiToolsOptions = {}) {
    this.#router = new ToolRouter(tools);
    const shown = tools.map((tool) => show(tool, options.strict ?? false));
    this.#shown = new Map(shown.map((entry) => [entry.tool.name, entry]));
    this.chat = shown.map(({ tool, parameters, strict }) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters, ...(strict && { strict: true }) },
    }));
    this.responses = shown.map(({ tool, parameters, strict }) => ({ type: "function", name: tool.name, description: tool.description, parameters, strict }));
  }

  /**
   * The tool messages answering every function call of a Chat Completion, in order. A
   * `finish_reason` of `length` marks the calls as cut off.
   */
  async answerChat(completion: ChatCompletion, turn: OpenAiTurn): Promise<ChatCompletionToolMessageParam[]> {
    const choice = completion.choices[0];
    const messages: ChatCompletionToolMessageParam[] = [];
    for (const call of choice?.message.tool_calls ?? []) {
      const outcome =
        call.type === "function"
          ? await this.#call(call.function.name, call.function.arguments, call.id, choice?.finish_reason ?? undefined, turn)
          : this.#router.unknown(call.custom.name);
      messages.push({ role: "tool", tool_call_id: call.id, content: toolResultText(outcome) });
    }
    return messages;
  }

  /**
   * The `function_call_output` items answering every function call of a Responses API
   * response, in order. A response left `incomplete` by `max_output_tokens` marks them cut off.
   */
  async answerResponse(response: Response, turn: OpenAiTurn): Promise<ResponseInputItem.FunctionCallOutput[]> {
    const cutOff = response.status === "incomplete" && response.incomplete_details?.reason === "max_output_tokens" ? "max_output_tokens" : undefined;
    const outputs: ResponseInputItem.FunctionCallOutput[] = [];
    for (const item of response.output) {
      if (item.type !== "function_call") continue;
      const outcome = await this.#call(item.name, item.arguments, item.call_id, cutOff, turn);
      outputs.push({ type: "function_call_output", call_id: item.call_id, output: toolResultText(outcome) });
    }
    return outputs;
  }

  /** `id`: the call's own id (`tool_calls[].id` in Chat Completions, `call_id` in Responses), for its span. */
  async #call(name: string, raw: string, id: string, finishReason: string | undefined, turn: OpenAiTurn): Promise<Outcome<unknown> | UnknownToolOutcome> {
    const shown = this.#shown.get(name);
    if (!shown) return this.#router.unknown(name);
    return shown.tool.call(raw, { turn: turn.turn, finishReason, signal: turn.signal, absentNulls: shown.absentNulls, toolCallId: id });
  }
}

/** Guarded tools for the OpenAI SDK (Chat Completions and Responses). */
export function openAiTools(tools: readonly DescribedTool[], options?: OpenAiToolsOptions): OpenAiTools {
  return new OpenAiTools(tools, options);
}

function show(tool: DescribedTool, strict: boolean | "auto"): Shown {
  return { tool, ...chooseStrictness(tool, strict) };
}

export { chatCompletionFromStream, responseFromStream, type StreamReading } from "./stream.ts";
