// The tools the mistake generator runs over: every tool of every captured MCP server
// (test/fixtures/mcp-tools/), and GitHub's REST API operations, each with a valid call.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ToolDescription } from "../../../generator/ir.ts";
import type { JsonSchema } from "../../../templates/runtime/contract/tool-spec.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/mcp-tools");

interface Snapshot {
  readonly source: string;
  readonly tools: readonly { name: string; description?: string; inputSchema: JsonSchema }[];
}

/** Every captured server's tools, by snapshot file name (sorted), each with the snapshot's source. */
export function mcpSnapshots(): { file: string; source: string; tools: ToolDescription[] }[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => {
      const snapshot = JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as Snapshot;
      return {
        file: name,
        source: snapshot.source,
        tools: snapshot.tools.map((tool) => ({
          name: tool.name,
          description: tool.description ?? "",
          inputSchema: tool.inputSchema,
          dialect: dialectOf(tool.inputSchema),
          references: {},
          source: { file: name, pointer: "" },
        })),
      };
    });
}

function dialectOf(schema: JsonSchema): ToolDescription["dialect"] {
  const declared = (schema as { $schema?: unknown }).$schema;
  return typeof declared === "string" && declared.includes("2020-12") ? "2020-12" : "draft-07";
}
