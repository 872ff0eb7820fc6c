// The tools whose input schemas hold tagged unions, for the union-tag classes (issue 31: the MCP
// servers and GitHub's API hold 6 such unions, so each class had a handful of cases). OpenAI's
// current description (the corpus's vendored copy, 3.1) holds 285 in 28 tools: the Responses
// API's input items, the chat messages, tool choices, file-search filters. Only those tools are
// taken, and only the union-tag classes are made on them (the other classes keep their corpus).
import path from "node:path";
import type { ToolDescription } from "../../../generator/ir.ts";
import { loadOpenApiDocument } from "../../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../../generator/read/openapi/read-openapi.ts";
import type { Schema } from "../../../generator/rehearse/mistakes/schema-view.ts";
import { taggedUnions } from "../../../generator/rehearse/mistakes/union-calls.ts";

const OPENAI = path.resolve(import.meta.dirname, "../../corpus/vendor/openai-openapi");

/** OpenAI's tools that hold at least one tagged union, by name. */
export async function openAiUnionTools(): Promise<{ source: string; tools: ToolDescription[] }> {
  const { tools } = readOpenApi(await loadOpenApiDocument(path.join(OPENAI, "openapi.json"), { root: OPENAI }));
  const withUnions = tools.filter((tool) => taggedUnions(tool.inputSchema as Schema).length > 0);
  return { source: "github openai/openai-openapi f85dbe2", tools: [...withUnions].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}
