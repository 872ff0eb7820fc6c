// The judge's two readings of OpenAPI that the guard applies and plain ajv does not
// (docs/openapi.md, "Path parameters that are null or empty" and "Discriminators: the value
// selects the branch"), each on a small document built the way the corpus met it (gettyimages'
// nullable path parameter, ix-api.net's branch whose discriminator property is a free string),
// judged end to end by judgeDocument. Without the judge's class, each gives false rejections.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { asWrittenJudge, docRef } from "./as-written.ts";
import { causeOf, emptyOracle, judgeDocument, TEMP_ROOT } from "./judge-document.ts";
import { operationsOf } from "./features.ts";
import { failuresOf } from "./known-failures.ts";
import { unsendablePath } from "./operation-arguments.ts";
import { entryFor as entryForIn } from "./test-entry.ts";

type Node = Record<string, unknown>;

mkdirSync(TEMP_ROOT, { recursive: true });
const dir = mkdtempSync(path.join(TEMP_ROOT, "judge-classes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entryFor = (name: string, document: Node) => entryForIn(dir, name, document);

const ok = { "200": { description: "done" } };

const nullablePath: Node = {
  openapi: "3.0.3",
  info: { title: "boards", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/boards/{board_id}": {
      delete: {
        operationId: "deleteBoard",
        parameters: [
          { name: "board_id", in: "path", required: true, schema: { type: "string", nullable: true } },
          { name: "Accept-Language", in: "header", schema: { type: "string" } },
        ],
        responses: ok,
      },
    },
    "/tags/{tag}": {
      get: { operationId: "getTag", parameters: [{ name: "tag", in: "path", required: true, schema: { type: ["string", "null"] } }], responses: ok },
    },
  },
};

const routeServer = {
  type: "object",
  properties: { type: { type: "string" }, asn: { type: "integer" } },
  required: ["type"],
};
const exchangeLan = {
  type: "object",
  properties: { type: { type: "string", enum: ["exchange_lan"] }, name: { type: "string" } },
  required: ["type", "name"],
};
const freeDiscriminator: Node = {
  openapi: "3.0.3",
  info: { title: "network features", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/configs": {
      post: {
        operationId: "createConfig",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                oneOf: [{ $ref: "#/components/schemas/RouteServer" }, { $ref: "#/components/schemas/ExchangeLan" }],
                discriminator: {
                  propertyName: "type",
                  mapping: { route_server: "#/components/schemas/RouteServer", exchange_lan: "#/components/schemas/ExchangeLan" },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
  },
  components: { schemas: { RouteServer: routeServer, ExchangeLan: exchangeLan } },
};

const BODY = "/paths/~1configs/post/requestBody/content/application~1json/schema";

describe("a path parameter whose schema lets it be null: valid as written, not sendable", () => {
  it("names the path arguments no request can carry", () => {
    expect(unsendablePath({ a: null, b: "", c: [], d: {}, e: "x", f: 0 }, ["a", "b", "c", "d", "e", "f"])).toEqual(["a", "b", "c", "d"]);
    expect(unsendablePath({ a: "x" }, ["a", "missing"])).toEqual([]);
  });

  it("names a dot segment too, in every spelling the URL parser resolves away", () => {
    // The pattern synthesizer made svix's `app_id` "." (its pattern allows dots) and GitHub's
    // deployment-record `cluster` "." in the full run: the guard refuses them (rule path_segment,
    // "send the real, non-empty value"), and they counted as false rejections.
    const call = { a: ".", b: "..", c: "%2e", d: "%2E%2e", e: "%252e", f: "a.b", g: "...", h: ".a" };
    expect(unsendablePath(call, Object.keys(call))).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("makes a not-sendable call the guard accepts, or refuses without naming the argument, a failure of the sample", () => {
    const result = {
      id: "x",
      kind: "openapi",
      status: "generated",
      operations: 1,
      tools: 1,
      skips: {},
      generationMs: 0,
      packageBytes: 0,
      toolBytes: 0,
      warnings: 0,
    } as const;
    expect(failuresOf({ ...result, oracle: { ...emptyOracle(), notSendable: 2 } })).toEqual([]);
    expect(failuresOf({ ...result, oracle: { ...emptyOracle(), notSendable: 2, notSendableUnhelpful: 1 } })).toEqual([
      "not-sendable call accepted, or refused without naming its path argument",
    ]);
  });

  it("counts such calls apart, each refused with an envelope that names the argument, and none as a false rejection", async () => {
    const result = await judgeDocument(entryFor("nullable-path", nullablePath), { typecheck: false });
    expect(result.status).toBe("generated");
    expect(result.tools).toBe(2);
    expect(result.oracle.falseRejectionExamples).toEqual([]);
    expect(result.oracle.falseRejections).toBe(0);
    // Both tools: 3.0's nullable and 3.1's type array.
    expect(result.oracle.notSendable).toBeGreaterThanOrEqual(2);
    expect(result.oracle.notSendableExamples.some((example) => example.startsWith("deleteBoard") && example.includes('"board_id":null'))).toBe(true);
    expect(result.oracle.notSendableExamples.some((example) => example.startsWith("getTag") && example.includes('"tag":null'))).toBe(true);
    expect(result.oracle.notSendableUnhelpful).toBe(0);
    // The calls that can be sent are still judged.
    expect(result.oracle.synthesized).toBeGreaterThan(0);
  });
});

describe("a discriminator whose branch leaves the property a free string: the value selects the branch", () => {
  it("takes a value outside the mapping as invalid, the mapped values by their own branch", () => {
    const validate = asWrittenJudge(freeDiscriminator)(docRef(BODY));
    expect(validate({ type: "route_server", asn: 1 })).toBe(true);
    expect(validate({ type: "exchange_lan", name: "lan" })).toBe(true);
    // Plain ajv accepts these through RouteServer's free `type`; OpenAPI's discriminator does not.
    expect(validate({ type: "a" })).toBe(false);
    expect(validate({ type: "exchange_lan", asn: 1 })).toBe(false);
    // Mapping entries name the branch only through the property: a call without it selects none.
    expect(validate({ asn: 1 })).toBe(false);
  });

  it("lets a branch's own values select it, where they differ from its name (OpenAI's unions without mapping)", () => {
    const document: Node = {
      openapi: "3.1.0",
      info: { title: "items", version: "1" },
      paths: {},
      components: {
        schemas: {
          Item: { oneOf: [{ $ref: "#/components/schemas/FunctionCall" }, { $ref: "#/components/schemas/Free" }], discriminator: { propertyName: "type" } },
          FunctionCall: { type: "object", properties: { type: { enum: ["function_call"] }, name: { type: "string" } }, required: ["type", "name"] },
          Free: { type: "object", properties: { type: { type: "string" }, note: { type: "string" } }, required: ["note"] },
        },
      },
    };
    const validate = asWrittenJudge(document)(docRef("/components/schemas/Item"));
    expect(validate({ type: "function_call", name: "f" })).toBe(true);
    // Free's implicit value is its component name; sent without the property, it is judged as written.
    expect(validate({ type: "Free", note: "n" })).toBe(true);
    expect(validate({ note: "n" })).toBe(true);
    expect(validate({ type: "other", note: "n" })).toBe(false);
  });

  it("judges a document with such a branch with no false rejection", async () => {
    const result = await judgeDocument(entryFor("free-discriminator", freeDiscriminator), { typecheck: false });
    expect(result.status).toBe("generated");
    expect(result.tools).toBe(1);
    expect(result.oracle.falseRejectionExamples).toEqual([]);
    expect(result.oracle.synthesized).toBeGreaterThan(0);
  });
});

describe("OpenAPI 3.1's dialect", () => {
  it("takes 3.0's `nullable` as an annotation, even without `type` (OpenAI's description)", () => {
    const document: Node = {
      openapi: "3.1.0",
      info: { title: "calls", version: "1" },
      paths: {},
      components: { schemas: { Tools: { nullable: true, anyOf: [{ type: "string" }] }, Name: { type: "string", nullable: true } } },
    };
    const judge = asWrittenJudge(document);
    expect(judge(docRef("/components/schemas/Tools"))("a")).toBe(true);
    expect(judge(docRef("/components/schemas/Name"))(null)).toBe(false);
  });

  it("takes 3.0's `nullable: false` without `type` as saying nothing (visma.com)", () => {
    const document: Node = {
      openapi: "3.0.1",
      info: { title: "t", version: "1" },
      paths: {},
      components: { schemas: { Any: { nullable: false, description: "any" } } },
    };
    expect(asWrittenJudge(document)(docRef("/components/schemas/Any"))(3)).toBe(true);
  });

  it("reads `date-time` and `time` as RFC 3339 does: an offset has its colon (Jira's `+0000` is not one)", () => {
    const document: Node = {
      openapi: "3.1.0",
      info: { title: "times", version: "1" },
      paths: {},
      components: { schemas: { At: { type: "string", format: "date-time" }, Time: { type: "string", format: "time" } } },
    };
    const judge = asWrittenJudge(document);
    const at = judge(docRef("/components/schemas/At"));
    expect(at("2021-01-17T12:34:00.000+00:00")).toBe(true);
    expect(at("2021-01-17T12:34:00Z")).toBe(true);
    expect(at("2021-01-17T12:34:00.000+0000")).toBe(false);
    expect(at("2021-02-30T12:34:00Z")).toBe(false);
    const time = judge(docRef("/components/schemas/Time"));
    expect(time("12:34:00+01:00")).toBe(true);
    expect(time("12:34:00+0100")).toBe(false);
  });

  it("matches a pattern with nested quantifiers in linear time (beezup's URL pattern hung the judge)", () => {
    const document: Node = {
      openapi: "3.1.0",
      info: { title: "urls", version: "1" },
      paths: {},
      components: { schemas: { Url: { type: "string", pattern: "^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$" } } },
    };
    const url = asWrittenJudge(document)(docRef("/components/schemas/Url"));
    expect(url("https://www.example.com/some/path")).toBe(true);
    // With a backtracking engine this call does not return.
    expect(url(`https://www.example.com/${"a".repeat(40)}!`)).toBe(false);
  });

  it("judges each linear-time pattern by its own matcher (webflow's email took another property's)", () => {
    // ajv caches one instance's patterns by `toString()`; two patterns matched in linear time
    // shared the first one's matcher, so "a" passed an email pattern and the guard's refusal
    // counted as a false rejection.
    const document: Node = {
      openapi: "3.1.0",
      info: { title: "users", version: "1" },
      paths: {},
      components: {
        schemas: {
          User: {
            type: "object",
            properties: {
              path: { type: "string", pattern: "^(/[a-z]+)+$" },
              email: { type: "string", pattern: "^[A-Za-z0-9][-+._A-Za-z0-9]*@([-_.A-Za-z0-9]+\\.)+[A-Za-z]{2,}$" },
            },
          },
        },
      },
    };
    const user = asWrittenJudge(document)(docRef("/components/schemas/User"));
    expect(user({ path: "/a/b", email: "ann@example.com" })).toBe(true);
    expect(user({ email: "a" })).toBe(false);
    expect(user({ path: "a" })).toBe(false);
  });
});

describe("an empty enum: legal JSON Schema that admits no value", () => {
  // Discord's join-request status: `{type: string, enum: [], allOf: [{$ref: Status}]}`. ajv
  // refuses to compile `enum: []`, so the judge could not map 2 of Discord's tools.
  const status = { type: "string", oneOf: [{ const: "STARTED" }, { const: "REJECTED" }] };
  const emptyStatus = { type: "string", enum: [], allOf: [{ $ref: "#/components/schemas/Status" }] };
  const joinRequests: Node = {
    openapi: "3.1.0",
    info: { title: "guild requests", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/requests": {
        get: {
          operationId: "listRequests",
          parameters: [
            { name: "status", in: "query", schema: emptyStatus },
            { name: "limit", in: "query", schema: { type: "integer" } },
          ],
          responses: ok,
        },
        patch: {
          operationId: "reviewRequest",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { type: "object", properties: { action: emptyStatus, reason: { type: "string" } } } } },
          },
          responses: ok,
        },
      },
    },
    components: { schemas: { Status: status, Named: { type: "string", enum: [], not: { const: "x" } } } },
  };

  it("compiles in every dialect and refuses every value, the schema's other keywords kept", () => {
    for (const openapi of ["3.1.0", "3.0.3"]) {
      const judge = asWrittenJudge({ ...joinRequests, openapi });
      const body = judge(docRef("/paths/~1requests/patch/requestBody/content/application~1json/schema"));
      expect(body({ reason: "spam" })).toBe(true);
      expect(body({ action: "REJECTED" })).toBe(false);
      expect(judge(docRef("/components/schemas/Named"))("y")).toBe(false);
    }
    const tool = asWrittenJudge({ type: "object", properties: { mode: { enum: [] } } }, "2020-12")({ $ref: "doc#" });
    expect(tool({})).toBe(true);
    expect(tool({ mode: "a" })).toBe(false);
  });

  it("leaves data alone: an example or default that is an empty list stays one", () => {
    const judge = asWrittenJudge({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: { schemas: { List: { type: "array", const: [], default: [] } } },
    });
    expect(judge(docRef("/components/schemas/List"))([])).toBe(true);
  });

  it("judges every tool of a document that has one", async () => {
    const result = await judgeDocument(entryFor("empty-enum", joinRequests), { typecheck: false });
    expect(result.status).toBe("generated");
    expect(result.tools).toBe(2);
    expect(result.oracle.unjudged).toEqual({});
    expect(result.oracle.falseRejections).toBe(0);
    expect(result.oracle.synthesized).toBeGreaterThan(0);
  });
});

describe("OpenAPI 3.2's operations", () => {
  const copy = { operationId: "copyFile", responses: ok };
  const paths = {
    "/files": {
      get: { operationId: "listFiles", responses: ok },
      query: { operationId: "searchFiles", responses: ok },
      additionalOperations: { COPY: copy, LOCK: { operationId: "lockFile", responses: ok } },
    },
  };

  it("counts `query` and every `additionalOperations` entry, with the method as sent", () => {
    const found = operationsOf({ openapi: "3.2.0", info: { title: "files", version: "1" }, paths });
    expect(found.map(([route, method]) => `${method} ${route}`)).toEqual(["get /files", "query /files", "COPY /files", "LOCK /files"]);
    expect(found[2]?.[2]).toBe(copy);
  });

  it("counts neither in 3.1, which does not define them", () => {
    expect(operationsOf({ openapi: "3.1.1", info: { title: "files", version: "1" }, paths }).map(([, method]) => method)).toEqual(["get"]);
  });
});

describe("skips counted by cause", () => {
  it("takes the operation's method and path out, so one cause is counted once", () => {
    const clash = (route: string) =>
      `operation POST ${route} and the operation at #/paths/~1a/post both become tool "Respond"; fix: give them distinct operationIds (at #/paths/x)`;
    expect(causeOf(clash("/api/v1/namespaces/{namespace}/complete"))).toBe(causeOf(clash("/namespaces/{namespace}/activities/fail")));
    expect(causeOf(clash("/a"))).toContain("operation METHOD /… and the operation at #…");
    expect(causeOf("request body has no JSON media type (`application/octet-stream`)")).toBe("request body has no JSON media type (`…`)");
  });
});
