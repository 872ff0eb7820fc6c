// The peers' texts for the mistake corpus, made by their own code, and read the way the literal
// repairer reads an envelope. The schema is handed to both SDKs as zod's `z.fromJSONSchema`
// makes it (what a JSON Schema becomes for an SDK that validates with zod):
// - the AI SDK (`ai`): `generateText` with a mock model whose first step calls the tool with the
//   case's text and whose second step records the prompt; the tool-result part's `error-text`
//   is exactly what `ai` puts in front of the model (InvalidToolInputError's message);
// - the MCP SDK (`@modelcontextprotocol/sdk`): an `McpServer` with the tool registered, called
//   through an in-memory transport; the `isError` result's text is its invalid-arguments error
//   ("Input validation error: Invalid arguments for tool ...", mcp.js validateToolInput).
// Reading: each zod issue the text carries becomes one error at its path (the AI SDK prints the
// issues as JSON; the MCP SDK as "<message> at <dot.path>" lines); a text with neither is one
// error at the root. A repairer that reads the texts any other way would be guessing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as z from "zod";
import type { EnvelopeError } from "../../generator/rehearse/literal-repairer.ts";
import { pointer } from "../../generator/rehearse/mistakes/schema-view.ts";

export interface Peers {
  /** The AI SDK's text for the call sent as `text`, or undefined when it accepted the call. */
  aiSdk(text: string): Promise<string | undefined>;
  /** The MCP SDK server's text for `args`, or undefined when it accepted them. */
  mcpSdk(args: unknown): Promise<string | undefined>;
  close(): Promise<void>;
}

const USAGE = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };

/** Both peers for one tool, or undefined when zod cannot read its schema. */
export async function peersFor(name: string, inputSchema: object): Promise<Peers | undefined> {
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(inputSchema as never);
  } catch {
    return undefined;
  }
  const server = new McpServer({ name: "corpus", version: "1.0.0" });
  try {
    // The SDK's types want a zod object shape; `fromJSONSchema` returns the object schema it reads at run time.
    const register = server.registerTool.bind(server) as (name: string, config: { inputSchema: unknown }, handler: () => unknown) => unknown;
    register(name, { inputSchema: schema }, async () => ({ content: [{ type: "text", text: "ok" }] }));
  } catch {
    return undefined;
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "corpus-client", version: "1.0.0" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  const tools = { [name]: tool({ inputSchema: schema as never, execute: async () => "ok" }) };
  return {
    async aiSdk(text) {
      let step = 0;
      let shown: string | undefined;
      const model = new MockLanguageModelV4({
        doGenerate: async (options) => {
          if (step++ === 0) {
            return {
              content: [{ type: "tool-call", toolCallId: "c1", toolName: name, input: text }],
              finishReason: { unified: "tool-calls", raw: undefined },
              usage: USAGE,
              warnings: [],
            } as never;
          }
          for (const message of options.prompt) {
            if (message.role !== "tool") continue;
            for (const part of message.content) if (part.type === "tool-result" && part.output.type === "error-text") shown = part.output.value;
          }
          return { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: undefined }, usage: USAGE, warnings: [] } as never;
        },
      });
      await generateText({ model, tools, prompt: "call the tool", stopWhen: stepCountIs(2) });
      return shown;
    },
    async mcpSdk(args) {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
      if (result.isError !== true) return undefined;
      const content = result.content as { type: string; text?: string }[];
      return content.map((part) => part.text ?? "").join("\n");
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

interface Issue {
  readonly path?: readonly (string | number)[];
  readonly code?: string;
  readonly message?: string;
}

/** The AI SDK's text as errors: the zod issues it prints as JSON after "Error message: ". */
export function readAiSdk(text: string): EnvelopeError[] {
  const at = text.indexOf("Error message: [");
  if (at >= 0) {
    try {
      const issues = JSON.parse(text.slice(at + "Error message: ".length)) as Issue[];
      return issues.map((issue) => ({ path: pointer((issue.path ?? []).map(String)), rule: issue.code ?? "zod", message: issue.message ?? "" }));
    } catch {
      // not the printed form: read as one text
    }
  }
  return [{ path: "", rule: "ai-sdk", message: text }];
}

/** The MCP SDK's text as errors: one "<message> at <a.b[0]>" line per zod issue. */
export function readMcpSdk(text: string): EnvelopeError[] {
  const prefix = /^MCP error -?\d+: Input validation error: Invalid arguments for tool [^:]+: /;
  const body = text.replace(prefix, "");
  if (body === text) return [{ path: "", rule: "mcp-sdk", message: text }];
  return body.split("\n").map((line) => {
    const match = / at ((?:[^\s.[\]]+)(?:\.[^\s.[\]]+|\[\d+\])*)$/.exec(line);
    if (match === null || match[1] === "object root") return { path: "", rule: "mcp-sdk", message: line };
    const tokens = (match[1] as string).split(/\.|\[(\d+)\]/).filter((token) => token !== undefined && token !== "");
    return { path: pointer(tokens), rule: "mcp-sdk", message: line.slice(0, match.index) };
  });
}
