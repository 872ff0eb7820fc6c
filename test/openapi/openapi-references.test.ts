// Reference fields in an OpenAPI document (docs/references.md): `x-toolguard-reference` in an
// operation's request body is lifted into the tool's reference table, as in a JSON Schema tool
// file, and the identifiers the resolvers find are what the request carries. It used to be
// dropped with the other extensions, silently: the model's words went out as the identifier.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";

const reference = (kind: string, target: string) => ({ "x-toolguard-reference": { kind, target } });

function document(body: object, parameterSchema: object = { type: "string" }, components: object = {}): object {
  return {
    openapi: "3.1.0",
    info: { title: "invoices", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/orgs/{org}/invoices": {
        post: {
          operationId: "create_invoice",
          parameters: [{ name: "org", in: "path", required: true, schema: parameterSchema }],
          requestBody: { required: true, content: { "application/json": { schema: body } } },
          responses: { "201": { description: "created" } },
        },
      },
    },
    components,
  };
}

const inlineBody = {
  type: "object",
  required: ["customer", "amount"],
  properties: {
    amount: { type: "number" },
    customer: { type: "string", description: "The customer's name, as the user said it.", ...reference("customer", "customer_id") },
    lines: {
      type: "array",
      items: { type: "object", properties: { product: { type: "string", ...reference("product", "product_id") }, qty: { type: "integer" } } },
    },
  },
};

let server: Server;
let baseUrl = "";
const received: unknown[] = [];
let project: TempProject | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received.push({ url: request.url, body: JSON.parse(body) });
      response.writeHead(201, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => project?.remove());

async function generate(doc: object): Promise<{ code: number; stdout: string; stderr: string }> {
  project = new TempProject({ "schemas/api.json": doc });
  return project.run("generate");
}

describe("reference fields in an OpenAPI request body", () => {
  it("are resolved before the request is sent, and the model never sees the annotation", async () => {
    expect((await generate(document(inlineBody))).code).toBe(0);
    const pkg = await import(path.join((project as TempProject).dir, "generated/index.js"));
    expect(JSON.stringify(pkg.createInvoice.inputSchema)).not.toContain("x-toolguard-reference");
    const dispatch = pkg.createHttpDispatcher({ baseUrl });
    const tool = pkg.createInvoice.implement((args: unknown, ctx: { signal?: AbortSignal }) => dispatch(pkg.createInvoice.http, args, ctx.signal), {
      ledger: new pkg.MemorySink(),
      resolvers: { customer: () => [{ id: "cus_7", label: "Acme BV" }], product: (text: string) => [{ id: `prd_${text}`, label: text }] },
    });
    const outcome = await tool.call('{"org":"acme","body":{"customer":"Acme","amount":5,"lines":[{"product":"widget","qty":2}]}}', { turn: "t" });
    expect(outcome).toMatchObject({ status: "ok", result: { status: 201 } });
    expect(received.at(-1)).toEqual({ url: "/orgs/acme/invoices", body: { amount: 5, lines: [{ qty: 2, product_id: "prd_widget" }], customer_id: "cus_7" } });
    const declarations = (project as TempProject).read("generated/tools/create-invoice.d.ts");
    expect(declarations).toContain("CreateInvoiceResolvedArgs");
  });

  it("skip their operation (never generated), with the place named, on a parameter or inside a component", async () => {
    // On a parameter, the operation's own mistake: that operation is skipped, named with the reason.
    const onParameter = await generate(document(inlineBody, { type: "string", ...reference("org", "org_id") }));
    expect(onParameter.stdout).toContain("api.json");
    expect(onParameter.stdout).toContain("x-toolguard-reference on the parameter org");
    const inComponent = await generate(
      document(
        { $ref: "#/components/schemas/Invoice" },
        { type: "string" },
        { schemas: { Invoice: { type: "object", properties: { customer: { type: "string", ...reference("customer", "customer_id") } } } } },
      ),
    );
    expect(inComponent.stdout).toContain("x-toolguard-reference must sit on a property reached through");
    expect(existsSync(path.join((project as TempProject).dir, "generated/tools"))).toBe(false);
  });
});
