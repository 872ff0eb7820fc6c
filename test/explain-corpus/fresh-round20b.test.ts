// Fresh inputs, round 20 (probe20b): shapes found by `toolguard rehearse` on published MCP servers
// that none of the messages was written against (docs/corpus.md, "Fresh inputs, round 20: MCP
// servers and tool sets"). Each schema is cut from the input named, with its licence.
import { afterAll, describe, expect, it } from "vitest";
import { loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// octocode-mcp 19.1.0 (MIT), zod 4: `ghGetFileContent`'s queries are a union of closed objects
// sharing their fields, told apart by what each requires (`fullContent`, `matchString`) and by
// `const` fields (`type: "file"` or `"directory"`, `fullContent: false` or `true`). No field name
// is one member's alone, so a query with one bad value heard only "it matches none of the allowed
// shapes"; the one member whose shape the query has is the one it was meant for.
const file = {
  owner: { type: "string" },
  repo: { type: "string" },
  path: { type: "string" },
  branch: { type: "string" },
  contextLines: { type: "integer", minimum: 0, maximum: 100 },
  minify: { type: "string", enum: ["none", "standard", "symbols"] },
  type: { type: "string", const: "file" },
} as const;
const fileContent = tool("ghGetFileContent", {
  type: "object",
  required: ["queries"],
  properties: {
    queries: {
      type: "array",
      minItems: 1,
      items: {
        anyOf: [
          {
            type: "object",
            additionalProperties: false,
            required: ["owner", "repo", "path"],
            properties: { ...file, fullContent: { type: "boolean", const: false } },
          },
          {
            type: "object",
            additionalProperties: false,
            required: ["owner", "repo", "path", "fullContent"],
            properties: { ...file, fullContent: { type: "boolean", const: true } },
          },
          {
            type: "object",
            additionalProperties: false,
            required: ["owner", "repo", "path", "matchString"],
            properties: { ...file, matchString: { type: "string" } },
          },
          {
            type: "object",
            additionalProperties: false,
            required: ["owner", "repo", "path", "type"],
            properties: { owner: { type: "string" }, repo: { type: "string" }, path: { type: "string" }, type: { type: "string", const: "directory" } },
          },
        ],
      },
    },
  },
});
const query = { owner: "octo", repo: "site", path: "README.md", branch: "main", type: "file" };

describe("a union of closed objects told apart by their shapes (octocode's file reads)", () => {
  it("reports the errors of the one member whose shape the value has", async () => {
    const { errors, repaired, after } = await roundTrip(fileContent, { queries: [{ ...query, minify: "symbolsed" }] });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe("/queries/0/minify");
    expect(errors[0]?.message).toMatch(/did you mean "symbols"\?/);
    expect(repaired).toEqual({ queries: [{ ...query, minify: "symbols" }] });
    expect(after).toBeUndefined();
  });

  it("a bound broken inside it is that member's bound", async () => {
    const { errors } = await roundTrip(fileContent, { queries: [{ ...query, contextLines: 101 }] });
    expect(errors.map((error) => error.path)).toEqual(["/queries/0/contextLines"]);
  });

  it("a value two members' shapes fit names neither", async () => {
    // With `matchString` optional in a second member, a query holding neither tag fits both.
    const twin = tool("twin", {
      type: "object",
      properties: {
        q: {
          anyOf: [
            {
              type: "object",
              additionalProperties: false,
              required: ["path"],
              properties: { path: { type: "string" }, minify: { enum: ["none", "symbols"] } },
            },
            {
              type: "object",
              additionalProperties: false,
              required: ["path"],
              properties: { path: { type: "string" }, minify: { enum: ["standard", "none"] }, matchString: { type: "string" } },
            },
          ],
        },
      },
    });
    const { errors } = await roundTrip(twin, { q: { path: "a", minify: "symbolsed" } });
    expect(errors.map((error) => [error.path, error.rule])).toEqual([["/q", "anyOf"]]);
  });

  it("a member's tag sent as another value is no member's shape", async () => {
    const { errors } = await roundTrip(fileContent, { queries: [{ ...query, type: "folder", minify: "symbolsed" }] });
    expect(errors.map((error) => error.path)).toEqual(["/queries/0"]);
  });
});

// octocode-mcp 19.1.0 (MIT): `npmSearch`'s queries are `anyOf: [{packageName}, {keywords}]`, two
// closed objects; a text sent as a query fits the one member whose one required field is a text.
const npmSearch = tool("npmSearch", {
  type: "object",
  required: ["queries"],
  properties: {
    queries: {
      type: "array",
      items: {
        anyOf: [
          { type: "object", additionalProperties: false, required: ["packageName"], properties: { packageName: { type: "string", minLength: 1 } } },
          {
            type: "object",
            additionalProperties: false,
            required: ["keywords"],
            properties: { keywords: { type: "array", minItems: 1, items: { type: "string" } }, page: { type: "integer" } },
          },
        ],
      },
    },
  },
});

describe("a text sent for a union of objects of which one wraps a text (octocode's npm queries)", () => {
  it("is offered in that member's text field", async () => {
    const { errors, repaired, after } = await roundTrip(npmSearch, { queries: ["zod"] });
    expect(errors[0]?.message).toMatch(/send \{"packageName":"zod"\}/);
    expect(repaired).toEqual({ queries: [{ packageName: "zod" }] });
    expect(after).toBeUndefined();
  });

  it("two members wrapping a text offer neither", async () => {
    const both = tool("both", {
      type: "object",
      properties: {
        q: {
          anyOf: [
            { type: "object", additionalProperties: false, required: ["packageName"], properties: { packageName: { type: "string" } } },
            { type: "object", additionalProperties: false, required: ["keyword"], properties: { keyword: { type: "string" } } },
          ],
        },
      },
    });
    const { errors } = await roundTrip(both, { q: "zod" });
    expect(errors[0]?.message).not.toMatch(/send \{/);
  });
});

// `@aaronsb/jira-cloud-mcp` 0.11.3 (MIT), hand-written JSON Schema: `manage_jira_issue`'s
// `operation` lists `delete` and `move`. `remove` is `delete` said otherwise, yet it heard `did
// you mean "move"?`, a spelling two edits away (and a call moving the issue instead).
const operations = ["create", "get", "update", "delete", "move", "transition", "comment", "link"];
const manageIssue = tool("manage_jira_issue", {
  type: "object",
  required: ["operation"],
  properties: { operation: { type: "string", enum: operations }, issueKey: { type: "string" } },
});

describe("a synonym of one listed value, two edits from another (Jira's issue operation)", () => {
  it("is read as the synonym", async () => {
    const { errors, repaired, after } = await roundTrip(manageIssue, { operation: "remove", issueKey: "AB-1" });
    expect(errors[0]?.message).toMatch(/did you mean "delete"\?/);
    expect(repaired).toEqual({ operation: "delete", issueKey: "AB-1" });
    expect(after).toBeUndefined();
  });

  it("a spelling one edit away still stands", async () => {
    const near = tool("near", { type: "object", properties: { operation: { type: "string", enum: ["delete", "removed"] } } });
    const { errors } = await roundTrip(near, { operation: "remove" });
    expect(errors[0]?.message).toMatch(/did you mean "removed"\?/);
  });
});

// `@dopplerhq/mcp-server` 1.0.5 (Apache-2.0), tools generated from Doppler's OpenAPI description:
// `secrets_download` takes `format` (json, yaml, ...) and `name_transformer` (camel, ...). `camel`
// sent as the format is a name transformer exactly, yet it heard `did you mean "yaml"?`, two
// edits away.
const download = tool("secrets_download", {
  type: "object",
  required: ["project", "config"],
  properties: {
    project: { type: "string" },
    config: { type: "string" },
    format: { type: "string", enum: ["json", "dotnet-json", "env", "yaml", "docker", "env-no-quotes"] },
    name_transformer: { type: "string", enum: ["camel", "upper-camel", "lower-snake", "tf-var", "dotnet", "dotnet-env", "lower-kebab"] },
  },
});

describe("a sibling's value exactly, two edits from one of the field's own (Doppler's download format)", () => {
  it("is moved to the sibling", async () => {
    const { errors, repaired, after } = await roundTrip(download, { project: "p", config: "dev", format: "camel" });
    expect(errors[0]?.message).toMatch(/It is a value of \/name_transformer: move it to \/name_transformer/);
    expect(repaired).toEqual({ project: "p", config: "dev", name_transformer: "camel" });
    expect(after).toBeUndefined();
  });

  it("with the sibling written already, the near miss stands", async () => {
    const { errors } = await roundTrip(download, { project: "p", config: "dev", format: "camel", name_transformer: "tf-var" });
    expect(errors[0]?.message).toMatch(/did you mean "yaml"\?/);
  });

  // The message depends on the call, so it is never remembered for the text (explain/rules/enum.ts
  // remembers only where no sibling lists the text at all): one loaded tool, both calls, both orders.
  it("is decided by each call, whichever came first", async () => {
    const moved = { project: "p", config: "dev", format: "camel" };
    const written = { ...moved, name_transformer: "tf-var" };
    for (const order of [
      [moved, written],
      [written, moved],
    ]) {
      const loaded = await loadTool(download);
      for (const call of order) {
        const errors = (await loaded.envelope(call)) ?? [];
        expect(errors[0]?.message).toMatch(call === moved ? /move it to \/name_transformer/ : /did you mean "yaml"\?/);
      }
    }
  });

  it("a spelling one edit away stands over the sibling", async () => {
    const close = tool("close", {
      type: "object",
      properties: { format: { type: "string", enum: ["json", "envs"] }, name_transformer: { type: "string", enum: ["env"] } },
    });
    const { errors } = await roundTrip(close, { format: "env" });
    expect(errors[0]?.message).toMatch(/did you mean "envs"\?/);
  });
});

// `@cloudbase/cloudbase-mcp` 2.34.6 (MIT), zod 3: `manageEnv`'s `action` lists `create` and
// `addSecurityDomain`. `add` starts the one and is a synonym of the other: it heard `did you
// mean "addSecurityDomain"?`, a call nobody asked for. The text determines neither.
const manageEnv = tool("manageEnv", {
  type: "object",
  required: ["action"],
  properties: { action: { type: "string", enum: ["listPackages", "create", "modifyPlan", "renew", "addSecurityDomain", "removeSecurityDomain"] } },
});

describe("a word that starts one listed value and is a synonym of another (CloudBase's env action)", () => {
  it("offers neither", async () => {
    const { errors } = await roundTrip(manageEnv, { action: "add" });
    expect(errors[0]?.message).toMatch(/must be one of/);
    expect(errors[0]?.message).not.toMatch(/did you mean/);
  });

  it("a start no synonym contradicts is still offered", async () => {
    const { errors } = await roundTrip(manageEnv, { action: "modify" });
    expect(errors[0]?.message).toMatch(/did you mean "modifyPlan"\?/);
  });
});

// `@cloudbase/cloudbase-mcp` 2.34.6 (MIT): `readNoSqlDatabaseContent`'s `sort` is `anyOf: [{type:
// array, items: {key, direction}}, {type: string}]` (the list, or its JSON text). An item's
// fields sent flat beside it heard "unknown field; remove it", and the call went on unsorted.
const readContent = tool("readNoSqlDatabaseContent", {
  type: "object",
  additionalProperties: false,
  required: ["collectionName"],
  properties: {
    collectionName: { type: "string" },
    sort: {
      anyOf: [
        {
          type: "array",
          items: {
            type: "object",
            additionalProperties: true,
            required: ["key", "direction"],
            properties: { key: { type: "string" }, direction: { type: "number" } },
          },
        },
        { type: "string" },
      ],
    },
    limit: { type: "number" },
  },
});

describe("a list item's fields sent flat, where the list may also be sent as text (CloudBase's sort)", () => {
  it("are moved into the list's first item", async () => {
    const { errors, repaired, after } = await roundTrip(readContent, { collectionName: "users", key: "createdAt", direction: -1 });
    expect(errors.map((error) => error.message).join(" ")).toMatch(/it belongs at \/sort\/0\/direction: move it to \/sort\/0\/direction/);
    expect(repaired).toEqual({ collectionName: "users", sort: [{ key: "createdAt", direction: -1 }] });
    expect(after).toBeUndefined();
  });
});
