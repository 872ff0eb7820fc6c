// Vercel AI SDK adapter (`ai`): a tool set whose `execute` is the guarded call, a repair hook
// that hands text that is not JSON to the guard (the SDK would otherwise answer it with its own
// parse error, uncounted), and the answer to a step the SDK stopped on `length` without running
// its tool calls. The schema goes through `jsonSchema()` without a validate function: the SDK
// does not validate, the guard does (and explains, bounds and records). `generateText` and
// `streamText` take the same set, hook and stop conditions (`stopOnRepeatedRefusal`).
import { jsonSchema, NoSuchToolError, tool, type StepResult, type StopCondition, type ToolCallRepairFunction, type ToolModelMessage, type ToolSet } from "ai";
import { ToolRouter, toolResultText, type DescribedTool, type Outcome, type RefusalWatch, type UnknownToolOutcome } from "../../runtime/index.ts";

/**
 * The key under which `repairToolCall` wraps text that did not parse, so that it reaches
 * `execute` (the SDK only hands over parsed JSON). `execute` unwraps it before the guard.
 */
const UNPARSED = "toolguard:unparsed";

/** Which conversation turn the calls belong to: one per user message, the caller's choice. */
export interface AiSdkTurn {
  readonly turn: string;
}

/**
 * A tool set for `generateText`/`streamText` (`tools`), for one turn. Each tool's `execute`
 * runs the guarded call and returns its outcome as JSON text, which the model reads as the
 * tool result (a correction or refusal included).
 */
export function aiSdkTools(tools: readonly DescribedTool[], turn: AiSdkTurn): ToolSet {
  const set: ToolSet = {};
  for (const guarded of new ToolRouter(tools).tools) {
    set[guarded.name] = tool({
      description: guarded.description,
      inputSchema: jsonSchema<unknown>(guarded.inputSchema),
      execute: async (input: unknown, { abortSignal, toolCallId }) =>
        toolResultText(await guarded.call(unwrap(input), { turn: turn.turn, signal: abortSignal, toolCallId })),
    });
  }
  return set;
}

/**
 * For `generateText({ repairToolCall })`: text that is not JSON goes on to the tool's
 * `execute`, and so to the guard, which explains it to the model and counts it against the
 * repair budget. An unknown tool name is left to the SDK, whose error result lists the tools
 * the model may call.
 */
export const repairToolCall: ToolCallRepairFunction<ToolSet> = async ({ toolCall, error }) => {
  if (NoSuchToolError.isInstance(error)) return null;
  return { ...toolCall, input: JSON.stringify({ [UNPARSED]: toolCall.input }) };
};

/**
 * The SDK runs no tool call of a step that finished on `length` and ends the loop there. This
 * answers such a step: each of its tool calls goes through the guard as cut off (explained,
 * counted, recorded), and the returned tool message goes after `result.response.messages` in
 * the next `generateText` call. Returns `undefined` when the step did not stop on `length` or
 * made no tool call.
 */
export async function answerCutOffStep(tools: readonly DescribedTool[], step: StepResult<ToolSet>, turn: AiSdkTurn): Promise<ToolModelMessage | undefined> {
  if (step.finishReason !== "length" || step.toolCalls.length === 0) return undefined;
  const router = new ToolRouter(tools);
  const content: ToolModelMessage["content"] = [];
  for (const call of step.toolCalls) {
    const guarded = router.get(call.toolName);
    const outcome: Outcome<unknown> | UnknownToolOutcome = guarded
      ? await guarded.call(unwrap(call.input), { turn: turn.turn, finishReason: "length", toolCallId: call.toolCallId })
      : router.unknown(call.toolName);
    content.push({ type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: { type: "text", value: toolResultText(outcome) } });
  }
  return { role: "tool", content };
}

/**
 * For `stopWhen`: ends the SDK's loop when the model, already refused in this turn, had every
 * call of the last step refused again (it is not going to stop); `watch.refusal` is then the
 * turn's answer. Pass the same `RefusalWatch` for every `generateText`/`streamText` of the turn.
 */
export function stopOnRepeatedRefusal(watch: RefusalWatch): StopCondition<ToolSet> {
  return ({ steps }) => {
    const results = steps.at(-1)?.toolResults ?? [];
    return results.length > 0 && watch.after(results.map((result) => (typeof result.output === "string" ? result.output : ""))) !== undefined;
  };
}

/** The raw text `repairToolCall` wrapped, or the parsed input as the SDK gave it. */
function unwrap(input: unknown): unknown {
  if (input !== null && typeof input === "object" && !Array.isArray(input)) {
    const keys = Object.keys(input);
    const text = (input as Record<string, unknown>)[UNPARSED];
    if (keys.length === 1 && typeof text === "string") return text;
  }
  return input;
}
