// OpenAI Agents adapter (`@openai/agents`): function tools whose `invoke` is the guarded call,
// built directly rather than through the SDK's `tool()`, which would parse the arguments
// first and answer text that is not JSON with its own fixed message, uncounted. Here the raw
// text reaches the guard. The strict choice is explicit and matches the OpenAI adapter: the
// tool's own schema (default), or its strict variant with the nulls it implies dropped.
// `guardCutOffCalls` wraps a model provider so that a Responses answer cut off by
// `max_output_tokens`, which the SDK turns into an exception, reaches the guard as cut off.
import type { FunctionTool, Model, ModelProvider, RunContext, ToolErrorFormatter } from "@openai/agents";
import { chooseStrictness, ToolRouter, toolResultText, unknownTool, type DescribedTool } from "../../runtime/index.ts";

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

/** Calls the provider wrapper saw cut off, by call id, until their tool reads them (bounded). */
const cutOffCalls = new Set<string>();
const CUT_OFF_LIMIT = 10_000;

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
      needsApproval: async () => false,
      isEnabled: async () => true,
      invoke: async (runContext, input, details) => {
        const callId = details?.toolCall?.callId;
        const cutOff = callId !== undefined && cutOffCalls.delete(callId);
        const outcome = await guarded.call(input, { turn: turnOf(runContext), finishReason: cutOff ? "max_output_tokens" : undefined, signal: details?.signal, absentNulls });
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

/**
 * Wraps a model provider (e.g. `new OpenAIProvider({ openAIClient })`) so that a Responses API
 * answer left `incomplete` by `max_output_tokens` with function calls in it is not an exception:
 * its calls run, and the guard reads them as cut off (explained, counted, bounded). Any other
 * unsuccessful answer still throws as before. Chat Completions models need nothing: the SDK
 * already runs calls whose `finish_reason` was `length`, and the guard finds the cut in the text.
 */
export function guardCutOffCalls(provider: ModelProvider): ModelProvider {
  return {
    async getModel(name?: string): Promise<Model> {
      const model = await provider.getModel(name);
      watchIncomplete(model);
      return model;
    },
  };
}

/** The SDK's check of a Responses answer's terminal state, as this wrapper relies on it. */
type TerminalCheck = (response: unknown, eventType?: string) => string | undefined;
const TERMINAL_CHECK = "_getUnsuccessfulResponseTerminalType";

function watchIncomplete(model: Model): void {
  const target = model as unknown as Record<string, unknown>;
  const isResponses = typeof target._getResponseUsage === "function" || model.constructor.name.startsWith("OpenAIResponses");
  if (!isResponses) return;
  const original = target[TERMINAL_CHECK];
  if (typeof original !== "function") {
    // The SDK changed where it decides this: fail loudly rather than silently stop guarding.
    throw new TypeError(`toolguard: this @openai/agents version has no ${TERMINAL_CHECK} on its Responses model; guardCutOffCalls supports @openai/agents 0.20`);
  }
  if ((original as { toolguard?: boolean }).toolguard) return;
  const check: TerminalCheck = (response, eventType) => {
    const type = (original as TerminalCheck).call(model, response, eventType);
    const calls = type === "response.incomplete" ? cutOffFunctionCalls(response) : [];
    if (calls.length === 0) return type;
    for (const id of calls) remember(id);
    return undefined;
  };
  target[TERMINAL_CHECK] = Object.assign(check, { toolguard: true });
}

/** Call ids of the function calls in a response cut off by `max_output_tokens`. */
function cutOffFunctionCalls(response: unknown): string[] {
  const { incomplete_details: details, output } = (response ?? {}) as { incomplete_details?: { reason?: string } | null; output?: unknown };
  if (details?.reason !== "max_output_tokens" || !Array.isArray(output)) return [];
  return output.filter((item): item is { type: "function_call"; call_id: string } => item?.type === "function_call" && typeof item.call_id === "string").map((item) => item.call_id);
}

function remember(callId: string): void {
  if (cutOffCalls.size >= CUT_OFF_LIMIT) cutOffCalls.delete(cutOffCalls.values().next().value as string);
  cutOffCalls.add(callId);
}

function defaultTurn(runContext: object): string {
  let turn = runTurns.get(runContext);
  if (turn === undefined) runTurns.set(runContext, (turn = `agents-run:${crypto.randomUUID()}`));
  return turn;
}

