// Fresh inputs, round 19 (probe19b): shapes found by `toolguard rehearse` on published MCP servers
// and agent tool sets that none of the messages was written against (docs/corpus.md, "Fresh
// inputs, round 19: MCP servers"). Each schema is cut from the input named, with its licence.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, describe, expect, it } from "vitest";
import { decodeError, encodeError, InputError } from "../../generator/errors.ts";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { linearRegExp } from "../../templates/runtime/validate/pattern.ts";
import { serveGuardedTools } from "../../templates/extras/mcp/index.ts";
import type { Resolver } from "../../templates/runtime/contract/api.ts";
import type { ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { projectsRemovedAfterEach } from "../helpers/temp-project.ts";
import { compile } from "../runtime/invoice-spec.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// tau-bench's retail `cancel_pending_order` (sierra-research/tau-bench 59a200c, MIT), an OpenAI
// function tool: `reason` is `no longer needed` or `ordered by mistake`. Cut at its first space,
// `no ` has the normal form `no`, shorter than a prefix is read from, so it heard only the list.
const cancel = tool("cancel_pending_order", {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "reason"],
  properties: {
    order_id: { type: "string" },
    reason: { type: "string", enum: ["no longer needed", "ordered by mistake"] },
    other: { type: "string", enum: ["no longer needed", "not sure"] },
  },
});

describe("a listed value cut at its first space (tau-bench's cancellation reason)", () => {
  it("is the one value it starts", async () => {
    const { errors, repaired, after } = await roundTrip(cancel, { order_id: "#W1", reason: "no " });
    expect(errors[0]?.message).toMatch(/did you mean "no longer needed"\?/);
    expect(repaired).toEqual({ order_id: "#W1", reason: "no longer needed" });
    expect(after).toBeUndefined();
  });

  it("two values it starts offer neither", async () => {
    const { errors } = await roundTrip(cancel, { order_id: "#W1", reason: "no longer needed", other: "no " });
    expect(errors[0]?.message).not.toMatch(/did you mean/);
  });
});

// Xero's `create-item` (`@xeroapi/xero-mcp-server` 0.0.17, MIT), zod 3: `purchaseDetails` and
// `salesDetails` are the same closed object, so `taxType` sent beside them has two homes. The
// call had written `salesDetails` and left `purchaseDetails` out, yet heard "move it to the place
// you meant", which names no place; the object the call is writing is the one it meant.
const details = {
  type: "object",
  additionalProperties: false,
  required: ["unitPrice"],
  properties: { unitPrice: { type: "number" }, taxType: { type: "string" }, accountCode: { type: "string" } },
} as const;
const item = tool("create-item", {
  type: "object",
  additionalProperties: false,
  required: ["code", "name"],
  properties: { code: { type: "string" }, name: { type: "string" }, purchaseDetails: details, salesDetails: details },
});

describe("a field two sibling objects take, sent beside the one the call writes (Xero's item details)", () => {
  it("is moved into the object the call holds", async () => {
    const { errors, repaired, after } = await roundTrip(item, { code: "A", name: "B", salesDetails: { unitPrice: 5 }, taxType: "OUTPUT" });
    expect(errors).toEqual([
      {
        path: "/taxType",
        rule: "additionalProperties",
        message: 'unknown field "taxType" at this level; it belongs at /salesDetails/taxType: move it to /salesDetails/taxType',
      },
    ]);
    expect(repaired).toEqual({ code: "A", name: "B", salesDetails: { unitPrice: 5, taxType: "OUTPUT" } });
    expect(after).toBeUndefined();
  });

  it("with both objects written, or neither, no place is chosen", async () => {
    const both = await roundTrip(item, { code: "A", name: "B", salesDetails: { unitPrice: 5 }, purchaseDetails: { unitPrice: 4 }, taxType: "OUTPUT" });
    expect(both.errors[0]?.message).toMatch(/move it to the place you meant/);
    const neither = await roundTrip(item, { code: "A", name: "B", taxType: "OUTPUT" });
    expect(neither.errors[0]?.message).toMatch(/move it to the place you meant/);
  });
});

// Postman's `getWorkspace` (`@postman/postman-mcp-server` 2.13.0, Apache-2.0): `include` is a
// comma list without repeats, `^(?!.*(?:^|,)(team|scim),(?:.*,)?\1(?:$|,))(team|scim)(,(team|scim))*$`
// (cut to two of its three values). The backreference cannot be matched in linear time, and in
// a tool file that stopped the whole run: `toolguard generate` on Postman's 204 tools wrote
// nothing. The tool is now skipped with the reason, as an operation of a vendor's document is.
describe("a published MCP server's tool whose pattern has a backreference (Postman's getWorkspace)", () => {
  const newProject = projectsRemovedAfterEach();
  const files = {
    "schemas/getWorkspace.json": {
      name: "getWorkspace",
      description: "Gets information about a workspace.",
      inputSchema: {
        type: "object",
        required: ["workspaceId"],
        additionalProperties: false,
        properties: {
          workspaceId: { type: "string" },
          include: { type: "string", pattern: "^(?!.*(?:^|,)(team|scim),(?:.*,)?\\1(?:$|,))(team|scim)(,(team|scim))*$" },
        },
        $schema: "http://json-schema.org/draft-07/schema#",
      },
    },
    "schemas/getWorkspaces.json": {
      name: "getWorkspaces",
      description: "Gets all workspaces.",
      inputSchema: { type: "object", additionalProperties: false, properties: { type: { type: "string", enum: ["personal", "team"] } } },
    },
  };

  it("is skipped with its reason; the server's other tools are generated", async () => {
    const project = newProject(files);
    const result = await project.run("generate", "--no-cache");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("generated: 1 tool");
    expect(result.stdout).toMatch(/getWorkspace \(getWorkspace\.json#\): pattern .* at #\/properties\/include\/pattern is refused: .*fix: /);
    expect(project.read("generated/index.js")).toContain("getWorkspaces");
  });

  it("rehearse rehearses the others and names the skip", async () => {
    const project = newProject(files);
    const result = await project.run("rehearse", "--json", "--limit", "2", "--seed", "1");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { tools: { tool: string }[]; skipped: { tool: string; reason: string }[] };
    expect(report.skipped.map((skip) => skip.tool)).toEqual(["getWorkspace"]);
    expect(report.skipped[0]?.reason).toMatch(/cannot be matched in linear time/);
    expect(report.tools.map((rehearsed) => rehearsed.tool)).toEqual(["getWorkspaces"]);
  });
});

// Microsoft 365's `format-excel-range` (`@softeria/ms-365-mcp-server` 0.155.0, MIT), generated
// from Graph's description: an open top level that requires `body`, whose fields (`bold`,
// `italic`, `color`) the call sends beside it. `bold` is two edits from `body`, so it was read as
// `body` misspelt, `move /bold here`, which would make the body `false`; a field the move table
// places inside the missing object is its field, not its value, as a word of its description is not.
const formatRange = tool("format-excel-range", {
  type: "object",
  required: ["body", "driveId"],
  properties: {
    driveId: { type: "string" },
    body: { type: "object", properties: { bold: { type: ["boolean", "null"] }, italic: { type: ["boolean", "null"] }, color: { type: ["string", "null"] } } },
  },
});

describe("a body field sent beside the missing body, its name close to body's (Microsoft 365's bold)", () => {
  it("is moved into the body, never read as the body misspelt", async () => {
    const { errors, repaired, after } = await roundTrip(formatRange, { driveId: "d1", bold: false, italic: true, color: "red" });
    expect(errors.map((error) => error.message).join("\n")).not.toMatch(/move \/bold here/);
    expect(repaired).toEqual({ driveId: "d1", body: { bold: false, italic: true, color: "red" } });
    expect(after).toBeUndefined();
  });
});

// Hostinger's `domains_getDomainListV1` (`hostinger-api-mcp` 1.63.2, MIT), hand-written JSON
// Schema: `sort` is `created_at`, `-created_at`, `expires_at` or `-expires_at`. Each pair shares
// a normal form, which the near-miss table leaves out, so `cre` cut short heard only the list.
const domains = tool("domains_getDomainListV1", {
  type: "object",
  additionalProperties: false,
  properties: { sort: { type: "string", enum: ["created_at", "-created_at", "expires_at", "-expires_at"] } },
});

describe("a sort value cut short, its descending twin listed beside it (Hostinger's sort)", () => {
  it("is the value it starts as written", async () => {
    const { errors, repaired, after } = await roundTrip(domains, { sort: "cre" });
    expect(errors[0]?.message).toMatch(/did you mean "created_at"\?/);
    expect(repaired).toEqual({ sort: "created_at" });
    expect(after).toBeUndefined();
  });

  it("the signed start is the signed value; a start two values share offers neither", async () => {
    expect((await roundTrip(domains, { sort: "-exp" })).repaired).toEqual({ sort: "-expires_at" });
    const both = tool("list", { type: "object", properties: { sort: { type: "string", enum: ["created_at", "-created_at", "creator", "-creator"] } } });
    expect((await roundTrip(both, { sort: "cre" })).errors[0]?.message).not.toMatch(/did you mean/);
  });
});

// Postman's `updateResponse` and `createRequest` (`@postman/postman-mcp-server` 2.13.0,
// Apache-2.0), cut to the fields in question: `raw` belongs in `dataOptions` and `query` in
// `graphqlModeData`, and the top level takes `rawModeData` and `queryParams`, which the names
// start. The abbreviation was offered over the exact name one level down ("did you mean
// "rawModeData"? Rename it."), though a misspelling two edits away already lost to the move.
const request = tool("createRequest", {
  type: "object",
  additionalProperties: false,
  properties: {
    rawModeData: { type: "string" },
    queryParams: { type: "array", items: { type: "object", properties: { key: { type: "string" } } } },
    dataOptions: { type: "object", additionalProperties: false, properties: { raw: { type: "object", properties: { language: { type: "string" } } } } },
    graphqlModeData: { type: "object", additionalProperties: false, properties: { query: { type: "string" }, variables: { type: "string" } } },
  },
});

describe("a field sent one level too high whose name starts another field's (Postman's raw)", () => {
  it("is moved to where its exact name is, not renamed", async () => {
    const { errors, repaired, after } = await roundTrip(request, { dataOptions: {}, raw: { language: "json" } });
    expect(errors[0]?.message).toMatch(/move it to \/dataOptions\/raw/);
    expect(repaired).toEqual({ dataOptions: { raw: { language: "json" } } });
    expect(after).toBeUndefined();
    expect((await roundTrip(request, { graphqlModeData: { variables: "{}" }, query: "{ me }" })).repaired).toEqual({
      graphqlModeData: { variables: "{}", query: "{ me }" },
    });
  });

  it("where no exact name is one level away, the start is still offered", async () => {
    const { repaired } = await roundTrip(request, { rawMode: "text" });
    expect(repaired).toEqual({ rawModeData: "text" });
  });
});

describe("the skip crosses a generation worker's thread boundary", () => {
  it("keeps skipsTool through encodeError and decodeError", () => {
    const error = new InputError({ file: "a.json", pointer: "/inputSchema" }, "pattern refused", "write it without a backreference", { skipsTool: true });
    const decoded = decodeError(encodeError(error));
    expect(decoded).toBeInstanceOf(InputError);
    expect((decoded as InputError).skipsTool).toBe(true);
    expect((decodeError(encodeError(new InputError({ file: "a.json", pointer: "" }, "p", "f"))) as InputError).skipsTool).toBe(false);
  });
});

// MCP has no turns (templates/extras/mcp/wording.ts): a chain is the calls to one tool from one
// caller until one succeeds. A reference its resolver finds twice is a question back, free four
// times in a chain; the fifth question's error said "this turn already asked 4 questions about
// references", a turn the MCP client never had. Five reference fields reach it in five calls.
describe("an MCP client asked a fifth question about references in one chain", () => {
  it("hears of the calls since the last success, never of a turn", async () => {
    const fields = ["a", "b", "c", "d", "e"];
    const schema = {
      type: "object" as const,
      additionalProperties: false,
      required: fields,
      properties: Object.fromEntries(fields.map((name) => [name, { type: "string" }])),
    };
    const spec: ToolSpec = {
      name: "link_things",
      description: "Link five things.",
      inputSchema: schema,
      validate: compile(schema),
      coercions: {},
      hints: { "#": { types: ["object"], properties: fields } },
      references: Object.fromEntries(fields.map((name) => [`/${name}`, { kind: "thing", target: `${name}_id` }])),
    };
    const twoThings: Resolver = (text) =>
      text.startsWith("id_")
        ? [{ id: text, label: text }]
        : [
            { id: "id_1", label: "One" },
            { id: "id_2", label: "Two" },
          ];
    const tool = defineTool<unknown, Record<string, unknown>, "thing">(spec).implement(() => "linked", {
      ledger: new MemorySink(),
      resolvers: { thing: twoThings },
    });
    const server = new McpServer({ name: "t", version: "1.0.0" });
    serveGuardedTools(server, [tool as never]);
    const client = new Client({ name: "host", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const bodies: string[] = [];
    try {
      for (let resolved = 0; resolved < fields.length; resolved++) {
        const args = Object.fromEntries(fields.map((name, index) => [name, index < resolved ? "id_1" : "the usual one"]));
        const result = await client.callTool({ name: "link_things", arguments: args });
        bodies.push((result.content as { text: string }[])[0]?.text ?? "");
      }
    } finally {
      await client.close();
    }
    expect(bodies.slice(0, 4).map((body) => (JSON.parse(body) as { status: string }).status)).toEqual(Array(4).fill("ambiguous_reference"));
    expect(bodies[4]).toContain('"rule":"too_many_questions"');
    expect(bodies[4]).toContain(
      "the calls to link_things since its last success already asked 4 questions about references; ask the user which thing they mean",
    );
    for (const body of bodies) expect(body).not.toMatch(/turn/);
  });
});

// The same pattern's refusal named the wrong cause: "lookaheads are matched only at the start,
// right after a leading ^", of a lookahead that is right after the leading ^. What stops the
// split is the backreference inside it, and the refusal (the skip's reason) now says so.
describe("a leading lookahead that cannot be split says why", () => {
  it("a backreference inside it, or a | outside every group", () => {
    expect(() => linearRegExp("^(?!.*(?:^|,)(team|scim),(?:.*,)?\\1(?:$|,))(team|scim)(,(team|scim))*$", "u")).toThrow(
      /^backreferences cannot be matched in linear time/,
    );
    expect(() => linearRegExp("^(?=.*\\d)[a-z]+|[0-9]+$", "u")).toThrow(/no \| stands outside every group/);
    expect(linearRegExp("^(?=.*\\d)(?:[a-z0-9]+|-)$", "u").test("a1")).toBe(true);
  });
});
