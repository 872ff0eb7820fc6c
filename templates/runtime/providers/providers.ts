// Each provider's tool format, from a tool's provider-neutral definition. The model sees the
// same name, description and schema everywhere; only the envelope differs.
import type { InputSchema } from "../contract/tool-spec.ts";

/** What every provider needs to show a tool to a model. */
export interface ToolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: InputSchema;
}

/** OpenAI Chat Completions `tools` entry. */
export function toOpenAiTool(tool: ToolDescriptor): {
  type: "function";
  function: { name: string; description: string; parameters: InputSchema };
} {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/** Anthropic Messages `tools` entry. */
export function toAnthropicTool(tool: ToolDescriptor): { name: string; description: string; input_schema: InputSchema } {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

/** MCP `tools/list` entry. */
export function toMcpTool(tool: ToolDescriptor): { name: string; description: string; inputSchema: InputSchema } {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
