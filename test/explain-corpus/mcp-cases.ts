// Mistakes on the MCP reference servers' tools, as captured from the servers themselves
// (test/fixtures/mcp-tools/*.json, with the package and version each came from).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ToolDescription } from "../../generator/ir.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";
import type { CorpusCase, Expected } from "../../generator/rehearse/mistake-case.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/mcp-tools");
export const SERVERS = ["server-filesystem", "server-memory", "server-everything"] as const;

interface Captured {
  readonly source: string;
  readonly tools: readonly { name: string; description?: string; inputSchema: JsonSchema }[];
}

export function readServer(server: (typeof SERVERS)[number]): { source: string; tools: ToolDescription[] } {
  const captured = JSON.parse(readFileSync(path.join(FIXTURES, `${server}.json`), "utf8")) as Captured;
  return {
    source: captured.source,
    tools: captured.tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      dialect: "draft-07",
      references: {},
      source: { file: `${server}.json`, pointer: "" },
    })),
  };
}

type Row = readonly [tool: string, mistake: string, args: unknown, expect: Expected];

const set = (path: string, value: unknown): Expected => ({ op: "set", path, value });
const remove = (path: string): Expected => ({ op: "remove", path });
const ask = (path: string): Expected => ({ op: "ask", path });
const mention = (path: string, text: string): Expected => ({ op: "mention", path, text });

const ROWS: Readonly<Record<(typeof SERVERS)[number], readonly Row[]>> = {
  "server-filesystem": [
    ["read_text_file", "number written with a mark or words", { path: "/a.txt", head: "20 lines" }, set("/head", 20)],
    ["read_text_file", "number written with a mark or words", { path: "/a.txt", tail: "last 50" }, set("/tail", 50)],
    ["read_text_file", "number written with a mark or words", { path: "/a.txt", head: "ten" }, set("/head", 10)],
    ["read_text_file", "null for an optional field", { path: "/a.txt", head: null }, remove("/head")],
    ["read_text_file", "null for an optional field", { path: "/a.txt", tail: null }, remove("/tail")],
    ["read_file", "number written with a mark or words", { path: "/a.txt", tail: "~100" }, set("/tail", 100)],
    ["read_file", "missing required field", { head: 5 }, ask("/path")],
    ["read_multiple_files", "one value where a list is wanted", { paths: "/a.txt" }, set("/paths", ["/a.txt"])],
    ["read_multiple_files", "bound", { paths: [] }, mention("/paths", "at least 1")],
    ["write_file", "missing required field", { path: "/a.txt" }, ask("/content")],
    ["edit_file", "missing required field", { path: "/a.txt", edits: [{ oldText: "a" }] }, ask("/edits/0/newText")],
    ["edit_file", "one value where a list is wanted", { path: "/a.txt", edits: { oldText: "a", newText: "b" } }, mention("/edits", "array")],
    ["edit_file", "boolean written as a word", { path: "/a.txt", edits: [], dryRun: "yes" }, mention("/dryRun", "true or false")],
    ["edit_file", "null for an optional field", { path: "/a.txt", edits: [], dryRun: null }, remove("/dryRun")],
    ["list_directory_with_sizes", "far near miss of an allowed value", { path: "/", sortBy: "sizes" }, set("/sortBy", "size")],
    ["list_directory_with_sizes", "far near miss of an allowed value", { path: "/", sortBy: "names" }, set("/sortBy", "name")],
    ["list_directory_with_sizes", "near miss by case", { path: "/", sortBy: "Size" }, set("/sortBy", "size")],
    ["list_directory_with_sizes", "null for an optional field", { path: "/", sortBy: null }, remove("/sortBy")],
    ["directory_tree", "one value where a list is wanted", { path: "/", excludePatterns: "node_modules" }, set("/excludePatterns", ["node_modules"])],
    ["search_files", "one value where a list is wanted", { path: "/", pattern: "*.ts", excludePatterns: "dist" }, set("/excludePatterns", ["dist"])],
    ["search_files", "missing required field", { path: "/" }, ask("/pattern")],
    ["move_file", "missing required field", { source: "/a" }, ask("/destination")],
  ],
  "server-memory": [
    [
      "create_entities",
      "one value where a list is wanted",
      { entities: [{ name: "Ada", entityType: "person", observations: "likes tea" }] },
      set("/entities/0/observations", ["likes tea"]),
    ],
    ["create_entities", "missing required field", { entities: [{ name: "Ada", observations: [] }] }, ask("/entities/0/entityType")],
    ["create_relations", "missing required field", { relations: [{ from: "Ada", to: "Bob" }] }, ask("/relations/0/relationType")],
    [
      "add_observations",
      "one value where a list is wanted",
      { observations: [{ entityName: "Ada", contents: "met Bob" }] },
      set("/observations/0/contents", ["met Bob"]),
    ],
    ["delete_entities", "one value where a list is wanted", { entityNames: "Ada" }, set("/entityNames", ["Ada"])],
    ["open_nodes", "one value where a list is wanted", { names: "Ada" }, set("/names", ["Ada"])],
    [
      "delete_observations",
      "one value where a list is wanted",
      { deletions: [{ entityName: "Ada", observations: "likes tea" }] },
      set("/deletions/0/observations", ["likes tea"]),
    ],
    ["search_nodes", "missing required field", {}, ask("/query")],
  ],
  "server-everything": [
    ["get-annotated-message", "far near miss of an allowed value", { messageType: "sucess" }, set("/messageType", "success")],
    ["get-annotated-message", "far near miss of an allowed value", { messageType: "errors" }, set("/messageType", "error")],
    ["get-annotated-message", "far near miss of an allowed value", { messageType: "debugs" }, set("/messageType", "debug")],
    ["get-annotated-message", "near miss by case", { messageType: "ERROR" }, set("/messageType", "error")],
    ["get-annotated-message", "boolean written as a word", { messageType: "error", includeImage: "no" }, mention("/includeImage", "true or false")],
    ["get-annotated-message", "null for an optional field", { messageType: "error", includeImage: null }, remove("/includeImage")],
    ["get-resource-links", "number written with a mark or words", { count: "5 links" }, set("/count", 5)],
    ["get-resource-links", "number written with a mark or words", { count: "three" }, set("/count", 3)],
    ["get-resource-links", "bound", { count: 20 }, mention("/count", "<= 10")],
    ["get-resource-links", "bound", { count: 0 }, mention("/count", ">= 1")],
    ["get-resource-reference", "far near miss of an allowed value", { resourceType: "Blobs" }, set("/resourceType", "Blob")],
    ["get-resource-reference", "far near miss of an allowed value", { resourceType: "Texts" }, set("/resourceType", "Text")],
    ["get-resource-reference", "number written with a mark or words", { resourceId: "#7" }, set("/resourceId", 7)],
    ["get-structured-content", "far near miss of an allowed value", { location: "Los Angles" }, set("/location", "Los Angeles")],
    ["get-structured-content", "far near miss of an allowed value", { location: "Chicgo" }, set("/location", "Chicago")],
    ["get-structured-content", "near miss by case", { location: "new york" }, set("/location", "New York")],
    ["get-sum", "number written with a mark or words", { a: "$5", b: 2 }, set("/a", 5)],
    ["get-sum", "number written with a mark or words", { a: 1, b: "two" }, set("/b", 2)],
    ["get-sum", "missing required field", { a: 1 }, ask("/b")],
    ["trigger-long-running-operation", "number written with a mark or words", { duration: "10 seconds" }, set("/duration", 10)],
    ["trigger-long-running-operation", "number written with a mark or words", { steps: "five" }, set("/steps", 5)],
    ["trigger-long-running-operation", "null for an optional field", { steps: null }, remove("/steps")],
    ["simulate-research-query", "boolean written as a word", { topic: "tides", ambiguous: "false please" }, mention("/ambiguous", "true or false")],
    ["echo", "missing required field", {}, ask("/message")],
    ["gzip-file-as-resource", "format", { data: "not a url" }, mention("/data", "uri")],
  ],
};

export function mcpCases(server: (typeof SERVERS)[number], source: string): CorpusCase[] {
  return ROWS[server].map(([tool, mistake, args, expect], index) => ({ id: `${server} ${tool}: ${mistake} ${index}`, source, tool, mistake, args, expect }));
}
