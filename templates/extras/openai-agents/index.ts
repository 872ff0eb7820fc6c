// OpenAI Agents adapter (`@openai/agents`): function tools whose `invoke` is the guarded call,
// built directly rather than through the SDK's `tool()`. The strict choice is explicit and
// matches the OpenAI adapter: the tool's own schema (default), or its strict variant with the
// nulls it implies dropped. The SDK's runner parses every call's arguments itself and answers
// text that is not JSON with a fixed "try again with valid JSON" (uncounted, unexplained), and
// throws on a Responses answer cut off by `max_output_tokens`. `guardModelProvider` wraps the
// model so both reach the guard: a call whose text is not a JSON object, or that was cut off,
// is handed to the runner wrapped in a small JSON object that `invoke` unwraps, and unwrapped
// again in what is sent back to the model, so the model sees its own text.
import {
  tool,
  type AgentInputItem,
  type FunctionTool,
  type Model,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type RunContext,
  type StreamEvent,
  type ToolErrorFormatter,
  type ToolToFinalOutputFunction,
} from "@openai/agents";
import { chooseStrictness, RefusalWatch, ToolRouter, toolResultText, unknownTool, type DescribedTool } from "../../runtime/index.ts";

export interface AgentsToolsOptions<Context> {
  /**
   * `false` (default): the tool's own schema, `strict: false`. `true`: the strict variant for
   * every tool (one that cannot be strict throws here, with why). `"auto"`: strict where the
   * schema allows it. The SDK's own default (strict) is never used implicitly.
   */
  readonly strict?: boolean | "auto";
  /**
   * The turn of a call. Default: one turn per run, that is per `RunContext` (a resumed run
   * state is a new one); the same for every call the agent makes while answering one input.
   */
  readonly turn?: (runContext: RunContext<Context>) => string;
}

/** The key under which `guardModelProvider` hands raw argument text to `invoke`. */
const RAW = "toolguard:raw";
/** Beside it, the reason the answer stopped, when it was cut off. */
const FINISH = "toolguard:finish";

/**
 * The SDK's own "never needs approval" policy, borrowed from a tool built by `tool()`: the
 * runner recognises it as static. A function of our own would count as a dynamic policy, and a
 * call whose text does not parse would then stop the run for approval instead of being answered.
 */
const NEVER_APPROVE = tool({
  name: "toolguard_policy",
  description: "",
  parameters: { type: "object", properties: {}, required: [], additionalProperties: false },
  strict: true,
  execute: () => "",
  // Typed for that tool's parameters; it reads none of them.
}).needsApproval as unknown as FunctionTool["needsApproval"];

/** One turn per run context, when the caller names none. */
const runTurns = new WeakMap<object, string>();

/** Function tools for an `Agent` (`new Agent({ tools: agentsTools([...]) })`). */
export function agentsTools<Context = unknown>(tools: readonly DescribedTool[], options: AgentsToolsOptions<Context> = {}): FunctionTool<Context>[] {
  const turnOf = options.turn ?? defaultTurn;
  return new ToolRouter(tools).tools.map((guarded) => {
    const { parameters, strict, absentNulls } = chooseStrictness(guarded, options.strict ?? false);
    const functionTool: FunctionTool<Context> = {
      type: "function",
      name: guarded.name,
      description: guarded.description,
      // The SDK's type wants `properties`, `required` and a boolean `additionalProperties`; the
      // schema goes to the model as generated (a strict one has exactly that shape).
      parameters: parameters as FunctionTool["parameters"],
      strict,
      needsApproval: NEVER_APPROVE,
      isEnabled: async () => true,
      invoke: async (runContext, input, details) => {
        const { raw, finishReason } = unwrap(input);
        const outcome = await guarded.call(raw, {
          turn: turnOf(runContext),
          finishReason,
          signal: details?.signal,
          absentNulls,
          // The runner passes the function call item it runs; its `callId` is the model's id of the call.
          toolCallId: details?.toolCall?.callId,
        });
        return toolResultText(outcome);
      },
    };
    return functionTool;
  });
}

/**
 * For `run(agent, input, { toolNotFoundBehavior: "return_error_to_model", toolErrorFormatter })`:
 * a call to a tool the agent does not have is answered with the tools it may call.
 */
export function unknownToolFormatter(tools: readonly DescribedTool[]): ToolErrorFormatter {
  const names = new ToolRouter(tools).names;
  return ({ kind, toolName }) => (kind === "tool_not_found" ? toolResultText(unknownTool(toolName, names)) : undefined);
}

/** One refusal watch per run (per `RunContext`), as the default turn is. */
const runRefusals = new WeakMap<object, RefusalWatch>();

/**
 * For `new Agent({ toolUseBehavior: endOnRepeatedRefusal })`: a model that calls again after
 * its tool refused it ("Do not retry") and has every call refused again ends the run with the
 * refusal as its final output, instead of calling until `maxTurns` and the SDK's
 * `MaxTurnsExceededError`. Otherwise the model runs again, as with the SDK's default.
 */
export const endOnRepeatedRefusal: ToolToFinalOutputFunction = (runContext, toolResults) => {
  let watch = runRefusals.get(runContext);
  if (watch === undefined) runRefusals.set(runContext, (watch = new RefusalWatch()));
  const refusal = watch.after(toolResults.map((result) => (result.type === "function_output" && typeof result.output === "string" ? result.output : "")));
  return refusal === undefined ? { isFinalOutput: false, isInterrupted: undefined } : { isFinalOutput: true, isInterrupted: undefined, finalOutput: refusal };
};

/**
 * Wraps a model provider (e.g. `new OpenAIProvider({ openAIClient })`) so that what the SDK's
 * runner would answer itself reaches the guard: a call whose text is not a JSON object, and a
 * Responses answer left `incomplete` by `max_output_tokens` with function calls in it (which the
 * SDK would throw on; its calls now run and are read as cut off), or a Chat Completions answer
 * with `finish_reason: "length"` (which the SDK runs, not knowing it was cut off). Any other
 * unsuccessful answer still throws. Streamed runs (`run(agent, input, { stream: true })`) are
 * covered the same way: the calls in the stream's final `response_done` event are wrapped.
 */
export function guardModelProvider(provider: ModelProvider): ModelProvider {
  return {
    async getModel(name?: string): Promise<Model> {
      const model = await provider.getModel(name);
      guardModel(model);
      return model;
    },
  };
}

/** The SDK's check of a Responses answer's terminal state, as this wrapper relies on it. */
type TerminalCheck = (response: unknown, eventType?: string) => string | undefined;
/**
 * An internal method of the SDK's Responses model (marked `@internal`; no public option lets a
 * run go on after an answer cut off by `max_output_tokens`), replaced on each model wrapped.
 */
export const TERMINAL_CHECK = "_getUnsuccessfulResponseTerminalType";
/** The @openai/agents version whose Responses model this wrapper was tested against. */
export const TESTED_AGENTS_VERSION = "0.20.0";
const GUARDED = Symbol("toolguard");

function guardModel(model: Model): void {
  const target = model as unknown as Record<string | symbol, unknown>;
  if (target[GUARDED]) return;
  const responses = model.constructor.name.startsWith("OpenAIResponses");
  const original = target[TERMINAL_CHECK];
  if (responses && typeof original !== "function") {
    // The SDK changed where it decides this: fail loudly rather than silently stop guarding.
    throw new TypeError(
      `toolguard: guardModelProvider cannot wrap this @openai/agents Responses model (${model.constructor.name}): it has no method ${TERMINAL_CHECK}, the SDK internal the wrapper replaces so that an answer cut off by max_output_tokens reaches the guard instead of failing the run. guardModelProvider was tested with @openai/agents ${TESTED_AGENTS_VERSION}; use that version, or run without guardModelProvider (text that is not JSON and cut-off answers then get the SDK's own handling).`,
    );
  }
  target[GUARDED] = true;
  const getResponse = model.getResponse.bind(model);
  model.getResponse = async (request: ModelRequest): Promise<ModelResponse> => wrapCalls(await getResponse(unwrapHistory(request)));
  const getStreamedResponse = model.getStreamedResponse.bind(model);
  model.getStreamedResponse = (request: ModelRequest) => wrapStream(getStreamedResponse(unwrapHistory(request)));
  if (!responses) return;
  const check: TerminalCheck = (response, eventType) => {
    const type = (original as TerminalCheck).call(model, response, eventType);
    return type === "response.incomplete" && cutOffByTokens(response) && hasFunctionCall(response) ? undefined : type;
  };
  target[TERMINAL_CHECK] = check;
}

/**
 * A streamed answer with its calls wrapped as `wrapCalls` does: the runner reads the calls from
 * the final `response_done` event. A Chat Completions stream says `finish_reason` only in its
 * chunks (the raw `model` events), so it is picked up on the way.
 */
async function* wrapStream(events: AsyncIterable<StreamEvent>): AsyncIterable<StreamEvent> {
  let chatFinish: unknown;
  for await (const event of events) {
    if (event.type === "model") chatFinish = chatFinishReason(event.event) ?? chatFinish;
    yield event.type === "response_done" ? { ...event, response: wrapCalls(event.response, chatFinish) } : event;
  }
}

/** Each function call whose text the runner would refuse, or that was cut off, wrapped for `invoke`. */
function wrapCalls<Response extends Pick<ModelResponse, "output" | "providerData">>(response: Response, chatFinish?: unknown): Response {
  const chat = chatFinish ?? chatFinishReason(response.providerData);
  const finish = cutOffByTokens(response.providerData) ? "max_output_tokens" : chat === "length" ? "length" : undefined;
  const output = response.output.map((item) => {
    if (item.type !== "function_call" || (finish === undefined && isJsonObject(item.arguments))) return item;
    return { ...item, arguments: JSON.stringify({ [RAW]: item.arguments, ...(finish && { [FINISH]: finish }) }) };
  });
  return { ...response, output };
}

/** The history as the model wrote it: wrapped calls back to their own text. */
function unwrapHistory(request: ModelRequest): ModelRequest {
  if (typeof request.input === "string") return request;
  const input = request.input.map(
    (item): AgentInputItem => (item.type === "function_call" ? { ...item, arguments: String(unwrap(item.arguments).raw) } : item),
  );
  return { ...request, input };
}

/** The raw text and finish reason `wrapCalls` packed, or the input as the runner gave it. */
function unwrap(input: string): { raw: unknown; finishReason: string | undefined } {
  if (!input.startsWith(`{"${RAW}"`)) return { raw: input, finishReason: undefined };
  try {
    const packed = JSON.parse(input) as Record<string, unknown>;
    if (typeof packed[RAW] === "string") return { raw: packed[RAW], finishReason: typeof packed[FINISH] === "string" ? packed[FINISH] : undefined };
  } catch {
    // Not ours after all (a model that wrote this prefix itself): the guard reads it as sent.
  }
  return { raw: input, finishReason: undefined };
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

function cutOffByTokens(response: unknown): boolean {
  const details = (response as { incomplete_details?: { reason?: string } | null } | undefined)?.incomplete_details;
  return (response as { status?: string } | undefined)?.status === "incomplete" && details?.reason === "max_output_tokens";
}

/** A Chat Completions model's raw answer (its `providerData`): the first choice's finish reason. */
function chatFinishReason(response: unknown): unknown {
  const choices = (response as { choices?: unknown } | undefined)?.choices;
  return Array.isArray(choices) ? (choices[0] as { finish_reason?: unknown } | undefined)?.finish_reason : undefined;
}

function hasFunctionCall(response: unknown): boolean {
  const output = (response as { output?: unknown } | undefined)?.output;
  return Array.isArray(output) && output.some((item: { type?: unknown } | null) => item?.type === "function_call");
}

function defaultTurn(runContext: object): string {
  let turn = runTurns.get(runContext);
  if (turn === undefined) runTurns.set(runContext, (turn = `agents-run:${crypto.randomUUID()}`));
  return turn;
}
