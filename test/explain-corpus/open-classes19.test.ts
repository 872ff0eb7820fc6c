// Round 18's open classes (docs/corpus.md, "Round 18's open classes, closed"): shapes of RunPod,
// Paddle, Prefect and Kavita the messages did not read. Each schema is cut from the input named,
// to the fields that matter; each test goes red without its fix.
import { afterAll, describe, expect, it } from "vitest";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);

// @runpod/mcp-server 4.0.0 (Apache-2.0), `update-cluster`: the rename body must hold a field.
const updateCluster = tool("update-cluster", {
  type: "object",
  required: ["id", "body"],
  properties: { id: { type: "string" }, body: { $ref: "#/$defs/UpdateClusterRequest" } },
  $defs: {
    UpdateClusterRequest: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      properties: { name: { type: "string", minLength: 1 }, size: { type: "integer" } },
    },
  },
});

describe("an emptied object's minProperties beside its own field (RunPod's update-cluster)", () => {
  it("one field: said at its place, moved in", async () => {
    const { errors, repaired, after } = await roundTrip(updateCluster, { id: "c1", body: {}, name: "renamed" });
    expect(errors).toEqual([
      {
        path: "/body/name",
        rule: "minProperties",
        message: 'got object {}; must NOT have fewer than 1 properties; the call holds "name" beside it, at /name: move /name here',
      },
    ]);
    expect(repaired).toEqual({ id: "c1", body: { name: "renamed" } });
    expect(after).toBeUndefined();
  });

  it("two fields: both moves, at the object", async () => {
    const { errors, repaired, after } = await roundTrip(updateCluster, { id: "c1", body: {}, name: "renamed", size: 2 });
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      [
        "/body",
        "got object {}; must NOT have fewer than 1 properties; the call sends its fields beside it: move /name to /body/name; move /size to /body/size",
      ],
    ]);
    expect(repaired).toEqual({ id: "c1", body: { name: "renamed", size: 2 } });
    expect(after).toBeUndefined();
  });

  it("a name the holder declares too is not moved", async () => {
    const { errors } = await roundTrip(updateCluster, { id: "c1", body: {} });
    expect(errors.map((error) => error.message)).toEqual(["got object {}; must NOT have fewer than 1 properties"]);
  });
});

// PrefectHQ/prefect ce79dd3d6c (Apache-2.0), `read_task_workers_task_workers_filter_post`: the
// filter is pydantic's optional model, `anyOf: [{$ref}, {type: null}]`, so its errors are
// reported at the definition, whose holder was not found through the union.
const readTaskWorkers = tool("read_task_workers", {
  type: "object",
  properties: {
    body: {
      type: "object",
      properties: { task_worker_filter: { anyOf: [{ $ref: "#/$defs/TaskWorkerFilter" }, { type: "null" }] } },
    },
  },
  $defs: {
    TaskWorkerFilter: {
      type: "object",
      required: ["task_keys"],
      properties: { task_keys: { type: "array", items: { type: "string" } } },
    },
  },
});

describe("a required field sent beside the optional model that requires it (Prefect's task_worker_filter)", () => {
  it("hears where the call holds it", async () => {
    const { errors, repaired, after } = await roundTrip(readTaskWorkers, { body: { task_worker_filter: {}, task_keys: ["k"] } });
    expect(errors).toEqual([
      {
        path: "/body/task_worker_filter/task_keys",
        rule: "required",
        message: 'missing required field "task_keys"; the call holds it at /body/task_keys, where it does not belong: move /body/task_keys here',
      },
    ]);
    expect(repaired).toEqual({ body: { task_worker_filter: { task_keys: ["k"] } } });
    expect(after).toBeUndefined();
  });
});

// @paddle/paddle-mcp 0.1.6 (Apache-2.0), `preview_transaction_create`: zod writes an item of an
// existing price or of a new one as two objects that each declare the other's field as `never`
// (`not: {}`), so every name was known to both branches and none was singled out.
const previewTransaction = tool("preview_transaction_create", {
  type: "object",
  required: ["items"],
  properties: {
    items: {
      type: "array",
      items: {
        anyOf: [
          {
            type: "object",
            additionalProperties: false,
            required: ["priceId", "quantity"],
            properties: { priceId: { type: "string" }, quantity: { type: "number" }, price: { not: {} } },
          },
          {
            type: "object",
            additionalProperties: false,
            required: ["price", "quantity"],
            properties: {
              price: { type: "object", properties: { name: { type: "string" } } },
              quantity: { type: "number" },
              priceId: { not: {} },
            },
          },
        ],
      },
    },
  },
});

describe("a union told apart by the fields present (Paddle's transaction items)", () => {
  it("a number sent with its sign is read inside the branch the fields pick", async () => {
    const { errors, repaired, after } = await roundTrip(previewTransaction, { items: [{ priceId: "pri_1", quantity: "+5" }] });
    expect(errors.map((error) => [error.path, error.message])).toEqual([["/items/0/quantity", expect.stringContaining("send 5")]]);
    expect(repaired).toEqual({ items: [{ priceId: "pri_1", quantity: 5 }] });
    expect(after).toBeUndefined();
  });

  it("an unknown field added is named at its place", async () => {
    const { errors, repaired, after } = await roundTrip(previewTransaction, { items: [{ priceId: "pri_1", quantity: 1, zz_note: "x" }] });
    expect(errors.map((error) => [error.path, error.message])).toEqual([["/items/0/zz_note", expect.stringContaining("remove it")]]);
    expect(repaired).toEqual({ items: [{ priceId: "pri_1", quantity: 1 }] });
    expect(after).toBeUndefined();
  });

  it("both fields sent: no branch is singled out", async () => {
    const { errors } = await roundTrip(previewTransaction, { items: [{ priceId: "pri_1", price: { name: "p" }, quantity: 1 }] });
    expect(errors.map((error) => [error.path, error.rule])).toEqual([["/items/0", "anyOf"]]);
  });
});

// Kareadita/Kavita ed7e9d4a6 (GPL-3.0), `post_api_Chapter_update`: thirteen lists of one person
// item (`{id, name, role}`), past the old cap of three places; cut to four. A person's fields
// sent flat with its list left out.
const person = { type: "object", additionalProperties: false, properties: { id: { type: "integer" }, name: { type: "string" }, role: { type: "integer" } } };
const updateChapter = tool("post_api_Chapter_update", {
  type: "object",
  required: ["body"],
  properties: {
    body: {
      type: "object",
      additionalProperties: false,
      properties: {
        titleName: { type: "string" },
        writers: { type: "array", items: { $ref: "#/$defs/Person" } },
        pencillers: { type: "array", items: { $ref: "#/$defs/Person" } },
        inkers: { type: "array", items: { $ref: "#/$defs/Person" } },
        publishers: { type: "array", items: { $ref: "#/$defs/Person" } },
      },
    },
  },
  $defs: { Person: person },
});

describe("a list item's fields sent flat where the same item sits under several lists (Kavita's people)", () => {
  it("moved into the one list whose item can take them all", async () => {
    const sent = {
      body: { titleName: "t", writers: [{ name: "a", role: 4 }], pencillers: [{ name: "b" }], inkers: [{ name: "c", role: 10 }], name: "d", role: 6 },
    };
    const { errors, repaired, after } = await roundTrip(updateChapter, sent);
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      ["/body/name", 'unknown field "name" at this level; it belongs at /body/publishers/0/name: move it to /body/publishers/0/name'],
      ["/body/role", 'unknown field "role" at this level; it belongs at /body/publishers/0/role: move it to /body/publishers/0/role'],
    ]);
    expect(repaired).toEqual({ body: { ...sent.body, name: undefined, role: undefined, publishers: [{ name: "d", role: 6 }] } });
    expect(after).toBeUndefined();
  });

  it("several lists free: the candidates named, not removed", async () => {
    const { errors } = await roundTrip(updateChapter, { body: { titleName: "t", writers: [{ name: "a", role: 4 }], name: "d" } });
    expect(errors.map((error) => error.message)).toEqual([
      'unknown field "name" at this level; it belongs at /body/pencillers/0/name or at /body/inkers/0/name or at /body/publishers/0/name: move it to the place you meant',
    ]);
  });
});

describe("a list item's field with more free places than a message names", () => {
  it("names eight and counts the rest", async () => {
    const lists = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`list${i}`, { type: "array", items: { $ref: "#/$defs/Person" } }]));
    const many = tool("many", { type: "object", additionalProperties: false, properties: { title: { type: "string" }, ...lists }, $defs: { Person: person } });
    const { errors } = await roundTrip(many, { title: "t", name: "d" });
    expect(errors.map((error) => error.message)).toEqual([
      `unknown field "name" at this level; it belongs at ${Array.from({ length: 8 }, (_, i) => `/list${i}/0/name`).join(" or at ")} (or 2 more places the call leaves free): move it to the place you meant`,
    ]);
  });
});

// PrefectHQ/prefect ce79dd3d6c (Apache-2.0), `create_automation_automations_post`: three lists
// of one action union, and the trigger's own `type`: four places, past the old cap of three.
const action = {
  anyOf: [
    { type: "object", additionalProperties: false, properties: { type: { const: "do-nothing" } } },
    { type: "object", additionalProperties: false, properties: { type: { const: "run-deployment" }, deployment_id: { type: "string" } } },
  ],
};
const createAutomation = tool("create_automation", {
  type: "object",
  required: ["body"],
  properties: {
    body: {
      type: "object",
      additionalProperties: false,
      properties: {
        name: { type: "string" },
        trigger: { type: "object", properties: { type: { const: "event" } } },
        actions: { type: "array", items: action },
        actions_on_trigger: { type: "array", items: action },
        actions_on_resolve: { type: "array", items: action },
      },
    },
  },
});

describe("an item's field sent flat where three lists take it (Prefect's automation actions)", () => {
  it("names the free places and removes nothing", async () => {
    const sent = { body: { name: "n", trigger: { type: "event" }, actions: [{}], actions_on_resolve: [{}], type: "do-nothing" } };
    const { errors, repaired } = await roundTrip(createAutomation, sent);
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      [
        "/body/type",
        'unknown field "type" at this level; it belongs at /body/actions/0/type or at /body/actions_on_trigger/0/type or at /body/actions_on_resolve/0/type: move it to the place you meant',
      ],
    ]);
    expect(repaired).toEqual(sent);
  });
});

// @runpod/mcp-server 4.0.0 again, `update-cluster` with its body left out: the top level is
// open, so `name` there raised no error of its own, and only `/body` said to move it.
describe("body fields at the top level of an open top level (RunPod)", () => {
  it("each field is flagged at its own place, with the move", async () => {
    const { errors, repaired, after } = await roundTrip(updateCluster, { id: "c1", name: "renamed" });
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      ["/body", 'missing required field "body"; the call sends its fields at this level ("name"): move them into it, as their errors say'],
      ["/name", '"name" belongs inside "body", which the call leaves out: move it to /body/name'],
    ]);
    expect(repaired).toEqual({ id: "c1", body: { name: "renamed" } });
    expect(after).toBeUndefined();
  });

  it("past the error cap, the moves are one error", async () => {
    const wide = tool("wide", {
      type: "object",
      required: ["body"],
      properties: {
        body: {
          type: "object",
          additionalProperties: false,
          properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, { type: "integer" }])),
        },
      },
    });
    const sent = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i]));
    const { errors, repaired, after } = await roundTrip(wide, sent);
    expect(errors.map((error) => error.path)).toEqual(["", "/body"]);
    expect(errors[0]?.message).toMatch(/^30 fields at this level are declared at \/body: move \/f0 to \/body\/f0; /);
    expect(repaired).toEqual({ body: sent });
    expect(after).toBeUndefined();
  });
});

// deepgram/deepgram-api-specs 4ba987c (CC-BY-4.0), Fern's operationIds, unique per tag only: the
// second `list` was skipped as a clash, so no mistake sent to it could be explained at all. Both
// are tools now, named by their tags, and a mistake sent to the second is explained.
describe("operationIds unique per tag only (Deepgram)", () => {
  it("every operation is a tool, and each one's mistakes are explained", async () => {
    const projectId = { name: "project_id", in: "path", required: true, schema: { type: "string" } };
    const limit = { name: "limit", in: "query", schema: { type: "integer", minimum: 1 } };
    const document = {
      openapi: "3.1.0",
      servers: [{ url: "https://api.deepgram.com" }],
      paths: {
        "/v1/projects": { get: { operationId: "list", tags: ["manage > v1 > projects"], parameters: [limit], responses: {} } },
        "/v1/projects/{project_id}/keys": {
          get: { operationId: "list", tags: ["manage > v1 > projects > keys"], parameters: [projectId, limit], responses: {} },
        },
      },
    };
    const { tools, skipped } = readOpenApi({ file: "deepgram.json", document });
    expect(skipped).toEqual([]);
    expect(tools.map((each) => each.name)).toEqual(["manage_v1_projects_list", "manage_v1_projects_keys_list"]);
    const { errors, repaired, after } = await roundTrip(tools[1] as (typeof tools)[number], { project_id: "p1", limt: 5 });
    expect(errors.map((error) => error.path)).toEqual(["/limt"]);
    expect(repaired).toEqual({ project_id: "p1", limit: 5 });
    expect(after).toBeUndefined();
  });
});
