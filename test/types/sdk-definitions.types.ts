// Compile-time tests (checked by `tsc` in `npm test`, never run): a generated tool's definition
// goes into each SDK's own tool type without a cast, because `inputSchema` is typed as an object
// schema. (The OpenAI Agents SDK's `tool()` wants `properties`, `required` and a literal
// `additionalProperties` on every schema; its adapter, agentsTools, builds its tools itself.)
import type Anthropic from "@anthropic-ai/sdk";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, tool, type ToolSet } from "ai";
import type { FunctionTool as AgentsFunctionTool } from "@openai/agents";
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { FunctionTool } from "openai/resources/responses/responses";
import { createInvoice, toAnthropicTool, toMcpTool, toolDefinitions, toOpenAiTool } from "../../generated/index.js";
import { agentsTools } from "../../generated/extras/openai-agents/index.js";
import { aiSdkTools } from "../../generated/extras/ai-sdk/index.js";
import { anthropicTools } from "../../generated/extras/anthropic/index.js";
import { openAiTools } from "../../generated/extras/openai/index.js";

const guarded = createInvoice.implement(() => "ok", { resolvers: { customer: () => [] } });

// Each SDK's type, filled straight from the definitions.
export const anthropic: Anthropic.Tool = { name: createInvoice.name, description: createInvoice.description, input_schema: createInvoice.inputSchema };
export const anthropicList: Anthropic.Tool[] = toolDefinitions.map(toAnthropicTool);
export const mcp: McpTool[] = toolDefinitions.map(toMcpTool);
export const chat: ChatCompletionFunctionTool[] = toolDefinitions.map(toOpenAiTool);
export const responses: FunctionTool = { type: "function", name: createInvoice.name, parameters: createInvoice.inputSchema, strict: false };
export const aiSdk = tool({ description: createInvoice.description, inputSchema: jsonSchema(createInvoice.inputSchema), execute: async () => "ok" });

// And the adapters return the SDKs' own types.
export const adapted: [ChatCompletionFunctionTool[], FunctionTool[], Anthropic.Tool[], ToolSet, AgentsFunctionTool<unknown>[]] = [
  openAiTools([guarded]).chat,
  openAiTools([guarded]).responses,
  anthropicTools([guarded]).definitions,
  aiSdkTools([guarded], { turn: "t" }),
  agentsTools([guarded]),
];
