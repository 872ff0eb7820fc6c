// A definition many tools refer to is compiled into one module they all import (issue 32: each
// OpenAI tool carried its own copy of every component's checks, 14.5 MB of a 27 MB package).
// Shown on an OpenAPI document whose operations share `Order`, `Item` and `Money`: each check is
// written once, an added tool costs less than half of its weight alone, the shared checks guard and
// explain as the tool's own did, and a tool loads only the modules its own schema needs.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../generator/config.ts";
import type { EmittedFile } from "../../generator/emit/runtime.ts";
import { generatePackage } from "../../generator/generate.ts";
import { TempProject } from "../helpers/temp-project.ts";

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
});

const ref = (name: string): object => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: object): object => ({ required: true, content: { "application/json": { schema } } });
const answered = { "200": { description: "done" } };

/** `orders` operations whose body is an `Order`, one refund (Items, no Order) and one plain ping. */
function document(orders: number): object {
  const paths: Record<string, object> = {};
  for (let n = 0; n < orders; n++)
    paths[`/shops/s${n}/orders`] = { post: { operationId: `createOrder${n}`, requestBody: body(ref("Order")), responses: answered } };
  paths["/refunds"] = { post: { operationId: "createRefund", requestBody: body(ref("Refund")), responses: answered } };
  paths["/ping"] = { post: { operationId: "ping", requestBody: body({ type: "object", properties: { note: { type: "string" } } }), responses: answered } };
  return {
    openapi: "3.1.0",
    info: { title: "shop", version: "1" },
    servers: [{ url: "https://shop.example.com" }],
    paths,
    components: {
      schemas: {
        Money: {
          type: "object",
          required: ["amount", "currency"],
          additionalProperties: false,
          properties: { amount: { type: "number", minimum: 0 }, currency: { type: "string", enum: ["USD", "EUR", "GBP"] } },
        },
        Item: {
          type: "object",
          required: ["sku", "price"],
          additionalProperties: false,
          properties: {
            sku: { type: "string", pattern: "^[A-Z]{3}-[0-9]{2,6}$" },
            price: ref("Money"),
            quantity: { type: "integer", minimum: 1, maximum: 999 },
          },
        },
        Order: {
          type: "object",
          required: ["items"],
          additionalProperties: false,
          properties: { items: { type: "array", minItems: 1, maxItems: 50, items: ref("Item") }, gift: ref("Item"), note: { type: "string", maxLength: 200 } },
        },
        Refund: {
          type: "object",
          required: ["reason", "lines"],
          properties: { reason: { type: "string", enum: ["damaged", "late", "wrong"] }, lines: { type: "array", items: ref("Item") } },
        },
      },
    },
  };
}

async function generated(orders: number): Promise<{ dir: string; files: readonly EmittedFile[] }> {
  const project = new TempProject({ "schemas/shop.json": document(orders) });
  projects.push(project);
  const config = resolveConfig({ sets: [{ schemas: "schemas", out: "out" }] }, undefined, project.dir);
  const { files } = await generatePackage(config.sets[0]!, config);
  for (const file of files) project.write(`out/${file.path}`, file.content);
  return { dir: path.join(project.dir, "out"), files };
}

const bytesOf = (files: readonly EmittedFile[], test: (file: string) => boolean): number =>
  files.filter((file) => test(file.path)).reduce((sum, file) => sum + Buffer.byteLength(file.content), 0);
const toolCode = (file: string): boolean => file.startsWith("tools/") && file.endsWith(".js");
const holding = (files: readonly EmittedFile[], text: string): string[] => files.filter((file) => file.content.includes(text)).map((file) => file.path);

type Guarded = { call(raw: unknown, context: object): Promise<{ status: string; errors?: { path: string; rule: string; message: string }[] }> };
type Package = { tools: Record<string, { implement(impl: () => unknown, options?: object): Guarded }> };
const ledger = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };

describe("validators of shared definitions", () => {
  let small: Awaited<ReturnType<typeof generated>>;
  let large: Awaited<ReturnType<typeof generated>>;
  // Apart, so that loading the emitters (the first run) and the second run each have the time
  // of a test.
  beforeAll(async () => {
    small = await generated(2);
  });

  it("each definition's checks are written in one module, whatever the number of tools that use them", async () => {
    large = await generated(6);
    for (const { files } of [small, large]) {
      for (const name of ["Order", "Item"]) {
        const modules = holding(files, `\nfunction validate_${name}(`);
        expect(modules).toHaveLength(1);
        expect(modules[0]).toMatch(new RegExp(`^tools/shared/${name}-[0-9a-f]{10}\\.js$`));
      }
      // Money holds no reference, so ajv inlines it into Item's checks: once, in Item's module.
      expect(holding(files, 'schemaPath:"#/$defs/Money/properties/currency/enum"')).toEqual(holding(files, "\nfunction validate_Item("));
      // Each tool that reaches Order imports it; the ping tool imports nothing shared.
      expect(holding(files, 'from "./shared/Order-').filter((file) => !file.startsWith("tools/shared/"))).toHaveLength(files === small.files ? 2 : 6);
      expect(files.find((file) => file.path === "tools/ping.js")?.content).not.toContain("./shared/");
    }
  });

  it("an added tool costs less than half of what the tool and the checks it shares weigh", () => {
    const shared = (files: readonly EmittedFile[]): number => bytesOf(files, (file) => file.startsWith("tools/shared/"));
    const perAddedTool = (bytesOf(large.files, toolCode) - bytesOf(small.files, toolCode)) / 4;
    const alone = bytesOf(small.files, (file) => file === "tools/create-order0.js") + shared(small.files);
    // Each tool that reached Order carried Order's and Item's checks whole, so an added tool cost
    // what one tool with all its checks weighs (27,057 bytes of 27,057 here). Shared, it costs
    // its own module (11,686 of 28,256), and the shared modules weigh the same at 2 and 6 tools.
    expect(shared(large.files)).toBe(shared(small.files));
    expect(perAddedTool).toBeLessThan(alone / 2);
    expect(perAddedTool).toBeGreaterThan(0);
  });

  it("the shared checks guard and explain each tool as its own checks did", async () => {
    const pkg = (await import(pathToFileURL(path.join(large.dir, "index.js")).href)) as Package;
    const order = pkg.tools["createOrder5"]?.implement(() => "done", { ledger }) as Guarded;
    const good = { body: { items: [{ sku: "ABC-12", price: { amount: 5, currency: "EUR" }, quantity: 2 }] } };
    expect((await order.call(JSON.stringify(good), { turn: "a" })).status).toBe("ok");
    const bad = { body: { items: [{ sku: "ABC-12", price: { amount: 5, currency: "eur" } }], gift: { sku: "x", price: { amount: -1, currency: "USD" } } } };
    const outcome = await order.call(JSON.stringify(bad), { turn: "b" });
    expect(outcome.status).toBe("validation_failed");
    const byPath = Object.fromEntries((outcome.errors ?? []).map((error) => [error.path, error]));
    // The hints are the tool's own, found by the shared function's schema paths.
    expect(byPath["/body/items/0/price/currency"]).toMatchObject({ rule: "enum" });
    expect(byPath["/body/items/0/price/currency"]?.message).toContain('"EUR"');
    expect(byPath["/body/gift/sku"]).toMatchObject({ rule: "pattern" });
    expect(byPath["/body/gift/price/amount"]).toMatchObject({ rule: "minimum" });
  });

  it("a tool loads the shared modules its schema needs and no other", async () => {
    // The small package, which no test has imported yet: its Order module refuses to load.
    const order = holding(small.files, "\nfunction validate_Order(")[0] as string;
    writeFileSync(path.join(small.dir, order), `throw new Error("${order} was loaded");\n`);
    const pkg = (await import(pathToFileURL(path.join(small.dir, "index.js")).href)) as Package;
    const refund = pkg.tools["createRefund"]?.implement(() => "done", { ledger }) as Guarded;
    const call = { body: { reason: "late", lines: [{ sku: "ABC-12", price: { amount: 1, currency: "USD" } }] } };
    expect((await refund.call(JSON.stringify(call), { turn: "c" })).status).toBe("ok");
    const wrong = await refund.call(JSON.stringify({ body: { reason: "late", lines: [{ sku: "ABC-12", price: { amount: 1, currency: "usd" } }] } }), {
      turn: "d",
    });
    expect(wrong.errors?.map((error) => error.path)).toEqual(["/body/lines/0/price/currency"]);
  });
});

describe("a shared module whose definitions hold equal values", () => {
  // pdfbroker.io's `PdfWriteStringOptions` refers to `XOriginPoint` and `YOriginPoint`, both
  // `{"type":"integer","enum":[0,1,2]}`: the module named both enum constants by the same value
  // and declared that name twice, so the package did not load ("has already been declared").
  const origin = { type: "integer", format: "int32", enum: [0, 1, 2] };
  const doc = {
    openapi: "3.0.3",
    info: { title: "pdf", version: "1" },
    servers: [{ url: "https://pdf.example.com" }],
    paths: {
      "/write": { post: { operationId: "writeString", requestBody: body(ref("WriteOptions")), responses: answered } },
      "/stamp": { post: { operationId: "stamp", requestBody: body({ type: "object", properties: { options: ref("WriteOptions") } }), responses: answered } },
    },
    components: {
      schemas: {
        Font: { type: "object", additionalProperties: false, properties: { name: { type: "string" }, size: { type: "number" } } },
        Color: { type: "object", additionalProperties: false, properties: { red: { type: "integer" }, font: ref("Font") } },
        XOriginPoint: origin,
        YOriginPoint: origin,
        WriteOptions: {
          type: "object",
          additionalProperties: false,
          properties: { font: ref("Font"), color: ref("Color"), xOrigin: ref("XOriginPoint"), yOrigin: ref("YOriginPoint"), text: { type: "string" } },
        },
      },
    },
  };

  it("declares each constant once, loads, and checks both places against it", async () => {
    const project = new TempProject({ "schemas/pdf.json": doc });
    projects.push(project);
    const config = resolveConfig({ sets: [{ schemas: "schemas", out: "out" }] }, undefined, project.dir);
    const { files } = await generatePackage(config.sets[0]!, config);
    for (const file of files) project.write(`out/${file.path}`, file.content);
    const shared = files.filter((file) => file.path.startsWith("tools/shared/"));
    expect(shared.length).toBeGreaterThan(0);
    for (const file of shared) {
      const declared = [...file.content.matchAll(/^const ([\w$]+) =/gm)].map((match) => match[1]);
      expect(declared, file.path).toEqual([...new Set(declared)]);
    }
    const pkg = (await import(pathToFileURL(path.join(project.dir, "out/index.js")).href)) as Package;
    const write = pkg.tools["writeString"]?.implement(() => "done", { ledger }) as Guarded;
    expect((await write.call(JSON.stringify({ body: { xOrigin: 1, yOrigin: 2, text: "hi" } }), { turn: "p1" })).status).toBe("ok");
    const wrong = await write.call(JSON.stringify({ body: { xOrigin: 3, yOrigin: 7 } }), { turn: "p2" });
    expect(wrong.errors?.map((error) => [error.path, error.rule])).toEqual([
      ["/body/xOrigin", "enum"],
      ["/body/yOrigin", "enum"],
    ]);
  });
});

describe("one definition inlined several times into a shared module (Discord's RichEmbed)", () => {
  // Discord's `RichEmbed` refers to `RichEmbedImage`, `RichEmbedThumbnail` and `RichEmbedVideo`,
  // three definitions of one text; ajv inlines each, with a schema constant for the
  // `type: ["string", "null"]` its errors quote. The three constants hold one value, so the
  // shared module named all three by it, declared one name three times, and the package did not
  // import (the corpus judge's harness error on Discord's description).
  const image = { type: "object", properties: { url: { type: ["string", "null"] }, width: { type: ["integer", "null"] } } };
  const embedDocument = {
    openapi: "3.1.0",
    info: { title: "chat", version: "1" },
    servers: [{ url: "https://chat.example.com" }],
    paths: Object.fromEntries(
      ["createMessage", "editMessage"].map((operationId, n) => [
        `/channels/c${n}/messages`,
        { post: { operationId, requestBody: body(ref("Embed")), responses: answered } },
      ]),
    ),
    components: {
      schemas: {
        Image: image,
        Thumbnail: image,
        Video: image,
        Author: { type: "object", properties: { name: { type: "string" }, icon: ref("Image") } },
        Embed: {
          type: "object",
          properties: Object.fromEntries(
            ["Image", "Thumbnail", "Video", "Author"].map((name) => [name.toLowerCase(), { oneOf: [{ type: "null" }, ref(name)] }]),
          ),
        },
      },
    },
  };

  it("declares each constant once, and the package imports and guards", async () => {
    const project = new TempProject({ "schemas/chat.json": embedDocument });
    projects.push(project);
    const config = resolveConfig({ sets: [{ schemas: "schemas", out: "out" }] }, undefined, project.dir);
    const { files } = await generatePackage(config.sets[0]!, config);
    for (const file of files) project.write(`out/${file.path}`, file.content);
    const embed = files.find((file) => file.path.startsWith("tools/shared/Embed-"));
    expect(embed).toBeDefined();
    const declared = [...(embed?.content ?? "").matchAll(/^const (\w+) =/gm)].map((match) => match[1]);
    expect(declared.length).toBeGreaterThan(0);
    expect(new Set(declared).size).toBe(declared.length);
    const pkg = (await import(pathToFileURL(path.join(project.dir, "out/index.js")).href)) as Package;
    const message = pkg.tools["createMessage"]?.implement(() => "done", { ledger }) as Guarded;
    expect((await message.call({ body: { image: { url: null }, video: { url: "https://v.example/1", width: 3 } } }, { turn: "a" })).status).toBe("ok");
    const wrong = await message.call({ body: { thumbnail: { width: "wide" } } }, { turn: "b" });
    expect(wrong.errors?.map((error) => `${error.path} ${error.rule}`)).toEqual(["/body/thumbnail/width type"]);
  });
});

// A `$ref` cycle is compiled where each tool's schema enters it, and ajv calls a function of the
// cycle that it was still compiling through a wrapper (`wrapper_x.validate(...)`): which calls
// are wrappers depends on the entry. Elasticsearch's query DSL cycle came out in 43 texts that
// differed only there, each written as a module of its own (874 KB each). Called directly,
// the cycle is one text, so one module, whichever definition a tool enters it by.
describe("a `$ref` cycle that tools enter by different definitions", () => {
  const cycle = {
    Query: {
      type: "object",
      additionalProperties: false,
      properties: { bool: ref("Bool"), term: { type: "object", additionalProperties: { type: "string", maxLength: 20 } } },
    },
    Bool: {
      type: "object",
      additionalProperties: false,
      properties: { must: { type: "array", items: ref("Query") }, filter: ref("Query"), boost: { type: "number", minimum: 0 } },
    },
    Aggregation: {
      type: "object",
      additionalProperties: false,
      properties: { filter: ref("Query"), aggs: { type: "object", additionalProperties: ref("Aggregation") } },
    },
  };
  const operation = (id: string, schema: object): object => ({ post: { operationId: id, requestBody: body(schema), responses: answered } });
  let dir: string;
  let files: readonly EmittedFile[];
  beforeAll(async () => {
    const project = new TempProject({
      "schemas/search.json": {
        openapi: "3.1.0",
        info: { title: "search", version: "1" },
        servers: [{ url: "https://search.example.com" }],
        paths: {
          "/search": operation("search", ref("Query")),
          "/bool": operation("boolSearch", ref("Bool")),
          "/aggregate": operation("aggregate", { type: "object", properties: { aggs: ref("Aggregation"), size: { type: "integer" } } }),
          "/count": operation("count", { type: "object", properties: { query: ref("Bool") } }),
        },
        components: { schemas: cycle },
      },
    });
    projects.push(project);
    const config = resolveConfig({ sets: [{ schemas: "schemas", out: "out" }] }, undefined, project.dir);
    files = (await generatePackage(config.sets[0]!, config)).files;
    for (const file of files) project.write(`out/${file.path}`, file.content);
    dir = path.join(project.dir, "out");
  });

  it("writes the cycle's checks once, and every tool that reaches it imports that module", () => {
    const modules = holding(files, "\nfunction validate_Query(");
    expect(modules).toHaveLength(1);
    expect(holding(files, "\nfunction validate_Bool(")).toEqual(modules);
    const module = files.find((file) => file.path === modules[0])?.content ?? "";
    expect(module).toContain("export { validate_Bool, validate_Query };");
    expect(holding(files, "wrapper_")).toEqual([]);
    const importers = holding(files, `from "./shared/${path.basename(modules[0] as string)}"`).filter((file) => !file.startsWith("tools/shared/"));
    expect(importers.sort()).toEqual(["tools/bool-search.js", "tools/count.js", "tools/search.js"]);
  });

  it("the direct calls guard and explain as the wrappers did, at any depth of the cycle", async () => {
    const pkg = (await import(pathToFileURL(path.join(dir, "index.js")).href)) as Package;
    for (const [name, wrap] of [
      ["search", (query: object) => query],
      ["boolSearch", (query: { bool: object }) => query.bool],
      ["count", (query: { bool: object }) => ({ query: query.bool })],
    ] as const) {
      const tool = pkg.tools[name]?.implement(() => "done", { ledger }) as Guarded;
      const good = { bool: { must: [{ term: { user: "kim" } }, { bool: { filter: { term: { tag: "a" } } } }], boost: 1 } };
      expect((await tool.call(JSON.stringify({ body: wrap(good as never) }), { turn: `${name}-ok` })).status).toBe("ok");
      const bad = { bool: { must: [{ bool: { filter: { term: { tag: "x".repeat(21) } }, boost: -1 } }] } };
      const outcome = await tool.call(JSON.stringify({ body: wrap(bad as never) }), { turn: `${name}-bad` });
      expect(outcome.status).toBe("validation_failed");
      const inner = name === "search" ? "/body/bool" : name === "count" ? "/body/query" : "/body";
      expect(Object.fromEntries((outcome.errors ?? []).map((error) => [error.path, error.rule]))).toEqual({
        [`${inner}/must/0/bool/filter/term/tag`]: "maxLength",
        [`${inner}/must/0/bool/boost`]: "minimum",
      });
    }
  });
});
