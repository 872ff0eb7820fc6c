// What every SDK adapter needs besides the SDK: find the guarded tool a model named, and answer
// a name that matches none with something the model can act on (the tools it may call) rather
// than an exception. Adapter-neutral, so it lives in the runtime; the adapters are extras.
import type { DescribedTool } from "../contract/api.ts";
import type { Outcome } from "../contract/outcome.ts";

/** The model called a tool that is not served here. Not a guard outcome: no tool was run or counted. */
export interface UnknownToolOutcome {
  readonly status: "unknown_tool";
  /** The name the model used, as a string (shortened when long). */
  readonly tool: string;
  /** The names it may call. */
  readonly available: readonly string[];
  readonly detail: string;
}

/** Longest tool name echoed back: provider names are at most 64 characters. */
const ECHO_LIMIT = 80;

export function unknownTool(name: unknown, available: readonly string[]): UnknownToolOutcome {
  const text = typeof name === "string" ? name : String(name);
  const tool = text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text;
  return {
    status: "unknown_tool",
    tool,
    available,
    detail: `There is no tool named ${JSON.stringify(tool)}. Call one of: ${available.map((candidate) => JSON.stringify(candidate)).join(", ")}.`,
  };
}

/** The guarded tools an adapter serves, by name. */
export class ToolRouter<Tool extends DescribedTool = DescribedTool> {
  readonly #byName: Map<string, Tool> = new Map();
  /** Every tool's name, in the order given. */
  readonly names: readonly string[];

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) {
      if (this.#byName.has(tool.name)) throw new TypeError(`toolguard: two tools are named ${JSON.stringify(tool.name)}; an adapter serves each name once`);
      this.#byName.set(tool.name, tool);
    }
    this.names = [...this.#byName.keys()];
  }

  get tools(): readonly Tool[] {
    return [...this.#byName.values()];
  }

  /** The tool called `name`, if it is served here (an own entry: `__proto__` is no tool). */
  get(name: unknown): Tool | undefined {
    return typeof name === "string" ? this.#byName.get(name) : undefined;
  }

  unknown(name: unknown): UnknownToolOutcome {
    return unknownTool(name, this.names);
  }
}

/** The text a model reads as a tool's result: the outcome as JSON (an ok outcome carries `result`). */
export function toolResultText(outcome: Outcome<unknown> | UnknownToolOutcome): string {
  return JSON.stringify(outcome);
}

/** Whether the model should see this result as an error (Anthropic's `is_error`, MCP's `isError`). */
export function isErrorResult(outcome: Outcome<unknown> | UnknownToolOutcome): boolean {
  return outcome.status !== "ok";
}
