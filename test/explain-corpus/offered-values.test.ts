// No message offers a value the schema would reject: every value an envelope offers ("send X",
// "must be exactly X", "did you mean X?" for a value, "for example X", "such as X"), put at its
// error's path, leaves no error at that path. Random mistakes on the MCP servers' tools and on
// a few GitHub operations, each made from a valid call by replacing one value.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { StandaloneValidator } from "../../templates/runtime/contract/tool-spec.ts";
import { pointerTokens } from "../../templates/runtime/json/json-pointer.ts";
import { readGitHub, validArguments } from "./github-cases.ts";
import type { EnvelopeError } from "../../generator/rehearse/literal-repairer.ts";
import { loadTool, type LoadedTool } from "../../generator/rehearse/load-tool.ts";
import { SERVERS, readServer } from "./mcp-cases.ts";

const GITHUB = [
  "pulls_create",
  "repos_create-webhook",
  "issues_list-for-repo",
  "actions_list-workflow-runs-for-repo",
  "checks_create",
  "repos_create-org-ruleset",
  "issues_create",
];

/** Valid calls for the MCP tools (their schemas ship no examples). */
const MCP_VALID: Record<string, unknown> = {
  read_text_file: { path: "/a.txt", head: 5 },
  list_directory_with_sizes: { path: "/", sortBy: "size" },
  edit_file: { path: "/a.txt", edits: [{ oldText: "a", newText: "b" }], dryRun: true },
  create_entities: { entities: [{ name: "Ada", entityType: "person", observations: ["x"] }] },
  "get-annotated-message": { messageType: "error", includeImage: false },
  "get-resource-links": { count: 3 },
  "get-resource-reference": { resourceType: "Text", resourceId: 1 },
  "get-structured-content": { location: "Chicago" },
  "get-sum": { a: 1, b: 2 },
  "gzip-file-as-resource": { name: "a.gz", data: "https://example.com/a" },
};

const OFFER = /\b(?:send|must be exactly|for example|such as|did you mean) (?=["[{\d-]|true\b|false\b|null\b)/g;

function offered(error: EnvelopeError): unknown[] {
  if (error.rule === "additionalProperties") return []; // names offered there are keys, not values
  const values: unknown[] = [];
  for (const match of error.message.matchAll(OFFER)) {
    const start = (match.index ?? 0) + match[0].length;
    for (let end = error.message.length; end > start; end--) {
      try {
        values.push(JSON.parse(error.message.slice(start, end)));
        break;
      } catch {
        // shorter
      }
    }
  }
  return values;
}

function put(args: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(args) as Record<string, unknown>;
  const tokens = pointerTokens(path);
  let node = copy;
  for (const token of tokens.slice(0, -1)) {
    if (node[token] === null || typeof node[token] !== "object") node[token] = {};
    node = node[token] as Record<string, unknown>;
  }
  node[tokens[tokens.length - 1] as string] = value;
  return copy;
}

function errorsAt(validate: StandaloneValidator, args: unknown, path: string): string[] {
  if (validate(args)) return [];
  return (validate.errors ?? [])
    .filter((error) => error.instancePath === path || error.instancePath.startsWith(`${path}/`))
    .map((error) => `${error.instancePath} ${error.keyword}`);
}

/** JSON Pointers of every value in `value`. */
function leafPaths(value: unknown, at = ""): string[] {
  if (value === null || typeof value !== "object") return [at];
  return [at, ...Object.entries(value).flatMap(([key, child]) => leafPaths(child, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`))].filter(
    (path) => path !== "",
  );
}

const subjects: { tool: LoadedTool; valid: unknown }[] = [];

beforeAll(async () => {
  const github = await readGitHub();
  for (const name of GITHUB) {
    const description = github.find((tool) => tool.name === name);
    const valid = description && validArguments(description);
    if (description && valid) subjects.push({ tool: await loadTool(description), valid });
  }
  for (const server of SERVERS) {
    for (const description of readServer(server).tools) {
      if (description.name in MCP_VALID) subjects.push({ tool: await loadTool(description), valid: MCP_VALID[description.name] });
    }
  }
});

describe("values offered by messages", () => {
  it("every subject's valid call is accepted", async () => {
    expect(subjects.length).toBeGreaterThan(12);
    for (const { tool, valid } of subjects) expect(await tool.envelope(valid), tool.description.name).toBeUndefined();
  });

  it("every offered value validates at its path", async () => {
    const mistake = fc.oneof(
      fc.constantFrom(null, "", "#12", "20 lines", "five", "yes", "10MB", "~3", true, -1, 0, 2.5, 1e9, [], {}, ["x"]),
      fc.string({ maxLength: 12 }),
      fc.integer(),
    );
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), mistake, async (which, where, value) => {
        const { tool, valid } = subjects[which % subjects.length] as (typeof subjects)[number];
        const paths = leafPaths(valid);
        const args = put(valid, paths[where % paths.length] as string, value);
        const errors = await tool.envelope(args);
        for (const error of errors ?? []) {
          for (const offer of offered(error)) {
            checked++;
            expect(
              errorsAt(tool.validate, put(args, error.path, offer), error.path),
              `${tool.description.name} ${JSON.stringify(error)} offers ${JSON.stringify(offer)}`,
            ).toEqual([]);
          }
        }
      }),
      { numRuns: 1500, seed: 4242 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});
