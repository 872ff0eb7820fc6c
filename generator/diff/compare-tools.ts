// Compares two sides' tools: which were added, removed or renamed, and for each tool on both
// sides, its description, its reference fields (which decide the resolvers a tool team must
// supply and the resolved argument type) and its input schema.
import type { ToolDescription } from "../ir.ts";
import type { Schema } from "../schema-walk.ts";
import { type Change, type ToolDiff, worstOf } from "./change.ts";
import { compareSchemas } from "./compare-schema.ts";
import { canonical, shown } from "./schema-view.ts";

/** One entry per tool on either side, sorted by name. */
export function compareTools(before: readonly ToolDescription[], after: readonly ToolDescription[]): ToolDiff[] {
  const oldByName = new Map(before.map((tool) => [tool.name, tool]));
  const newByName = new Map(after.map((tool) => [tool.name, tool]));
  const gone = before.filter((tool) => !newByName.has(tool.name));
  const arrived = after.filter((tool) => !oldByName.has(tool.name));
  const renames = matchRenamedTools(gone, arrived);
  const diffs: ToolDiff[] = [];
  for (const tool of after) {
    const old = oldByName.get(tool.name);
    if (old) {
      diffs.push(toolDiff(tool.name, undefined, compareTool(old, tool)));
      continue;
    }
    const from = renames.get(tool);
    if (from) {
      const rename: Change = {
        path: "",
        schemaPointer: "",
        keyword: "name",
        kind: "tool",
        toolTeams: "breaking",
        models: "breaking",
        message: `renamed from ${from.name} to ${tool.name}: calls by the old name fail, and code importing it must change`,
      };
      diffs.push(toolDiff(tool.name, from.name, [rename, ...compareTool(from, tool)]));
      continue;
    }
    diffs.push({
      name: tool.name,
      status: "added",
      changes: [
        {
          path: "",
          schemaPointer: "",
          keyword: "",
          kind: "tool",
          toolTeams: "none",
          models: "none",
          message: `new tool ${tool.name}: the model may now call it`,
        },
      ],
      toolTeams: "none",
      models: "none",
    });
  }
  const renamedFrom = new Set([...renames.values()]);
  for (const tool of gone) {
    if (renamedFrom.has(tool)) continue;
    diffs.push({
      name: tool.name,
      status: "removed",
      changes: [
        {
          path: "",
          schemaPointer: "",
          keyword: "",
          kind: "tool",
          toolTeams: "breaking",
          models: "breaking",
          message: `tool ${tool.name} removed: every call to it now fails, and code importing it stops compiling`,
        },
      ],
      toolTeams: "breaking",
      models: "breaking",
    });
  }
  const titles = new Map([...before, ...after].map((tool) => [tool.name, titleOf(tool)]));
  return diffs
    .map((diff) => {
      const title = titles.get(diff.name);
      return title === undefined ? diff : { ...diff, title };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** An OpenAPI tool's `METHOD /path`: how its readers name the operation. */
function titleOf(tool: ToolDescription): string | undefined {
  return tool.http ? `${tool.http.method.toUpperCase()} ${tool.http.path}` : undefined;
}

function toolDiff(name: string, previousName: string | undefined, changes: readonly Change[]): ToolDiff {
  return {
    name,
    ...(previousName === undefined ? {} : { previousName }),
    status: previousName !== undefined ? "renamed" : changes.length > 0 ? "changed" : "unchanged",
    changes,
    toolTeams: worstOf(changes, "toolTeams"),
    models: worstOf(changes, "models"),
  };
}

/**
 * Renamed tools: a tool gone under one name and present under another that comes from the
 * same place (an OpenAPI operation whose operationId changed keeps its method and path; a tool
 * file keeps its file) or, for tool files, has the very same input schema.
 */
function matchRenamedTools(gone: readonly ToolDescription[], arrived: readonly ToolDescription[]): Map<ToolDescription, ToolDescription> {
  const renames = new Map<ToolDescription, ToolDescription>();
  const taken = new Set<ToolDescription>();
  const identities: ((tool: ToolDescription) => string | undefined)[] = [
    (tool) => (tool.http ? `${tool.http.method} ${tool.http.path}` : undefined),
    (tool) => `${tool.source.file}#${tool.source.pointer}`,
    // Equal schemas are common among HTTP operations ({owner, repo}), so only tool files count them.
    (tool) => (tool.http ? undefined : canonical(tool.inputSchema)),
  ];
  for (const identity of identities) {
    const byIdentity = new Map<string, ToolDescription>();
    for (const tool of gone) {
      const key = identity(tool);
      if (key !== undefined && !taken.has(tool) && !byIdentity.has(key)) byIdentity.set(key, tool);
    }
    for (const tool of arrived) {
      if (renames.has(tool)) continue;
      const key = identity(tool);
      const from = key === undefined ? undefined : byIdentity.get(key);
      if (!from || taken.has(from)) continue;
      renames.set(tool, from);
      taken.add(from);
    }
  }
  return renames;
}

/** Every change between two versions of one tool. */
export function compareTool(before: ToolDescription, after: ToolDescription): Change[] {
  const changes: Change[] = [];
  if (before.description !== after.description) {
    changes.push({
      path: "",
      schemaPointer: "",
      keyword: "description",
      kind: "annotation",
      toolTeams: "none",
      models: "none",
      message: `tool description now ${shown(after.description, 80)}`,
    });
  }
  changes.push(...compareReferences(before, after));
  if (before.http && after.http && (before.http.method !== after.http.method || before.http.path !== after.http.path)) {
    changes.push({
      path: "",
      schemaPointer: "",
      keyword: "http",
      kind: "tool",
      toolTeams: "possibly",
      models: "none",
      message: `dispatches to ${after.http.method} ${after.http.path} instead of ${before.http.method} ${before.http.path}`,
    });
  }
  changes.push(...compareSchemas(before.inputSchema as Schema, after.inputSchema as Schema));
  return changes;
}

/** Reference fields: each one needs a resolver of its kind and changes the resolved argument type. */
function compareReferences(before: ToolDescription, after: ToolDescription): Change[] {
  const changes: Change[] = [];
  const oldKinds = new Set(Object.values(before.references).map((field) => field.kind));
  const paths = [...new Set([...Object.keys(before.references), ...Object.keys(after.references)])].sort();
  for (const path of paths) {
    const old = before.references[path];
    const now = after.references[path];
    const at = { path, schemaPointer: "", keyword: "x-toolguard-reference", kind: "reference" as const, models: "none" as const };
    if (old && now) {
      if (old.kind === now.kind && old.target === now.target) continue;
      changes.push({
        ...at,
        toolTeams: "breaking",
        message: `reference at ${path} now resolves a ${now.kind} into ${now.target} (was a ${old.kind} into ${old.target})${oldKinds.has(now.kind) ? "" : `: a new resolver for ${now.kind} is needed`}`,
      });
    } else if (now) {
      const fresh = !oldKinds.has(now.kind);
      changes.push({
        ...at,
        toolTeams: "breaking",
        message: `${path} is now a reference to a ${now.kind}, resolved into ${now.target}${fresh ? `: a new reference kind, implement() needs a resolver for ${now.kind}` : ""}`,
      });
    } else if (old) {
      changes.push({
        ...at,
        toolTeams: "breaking",
        message: `${path} is no longer a reference: the implementation receives it as sent instead of ${old.target}`,
      });
    }
  }
  return changes;
}
