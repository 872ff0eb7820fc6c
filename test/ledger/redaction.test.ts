// Issue 15.7: secrets never reach the ledger in clear, and the file is the owner's alone.
import { mkdtemp, stat, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { Redactor, writeOnlyPointers } from "../../templates/runtime/ledger/redact.ts";
import type { StandaloneValidator, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";

const loginSchema = {
  type: "object",
  properties: {
    user: { type: "string" },
    password: { type: "string" },
    apiKey: { type: "string" },
    pin: { type: "integer", writeOnly: true },
    max_tokens: { type: "integer" },
    nested: { type: "array", items: { type: "object", properties: { refresh_token: { type: "string" }, note: { type: "string" } } } },
  },
  required: ["user"],
} as const;

function loginSpec(): ToolSpec {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(loginSchema) as unknown as StandaloneValidator;
  return {
    name: "login",
    description: "",
    inputSchema: loginSchema as unknown as ToolSpec["inputSchema"],
    validate,
    coercions: { "/pin": "integer", "/max_tokens": "integer" },
    hints: {},
    references: {},
  };
}

const SECRETS = ["hunter2", "sk-live-123", "9876", "rt-abc"];
const clean = { user: "ann", password: "hunter2", apiKey: "sk-live-123", pin: 9876, max_tokens: 77, nested: [{ refresh_token: "rt-abc", note: "visible" }] };

function text(sink: MemorySink): string {
  return JSON.stringify(sink.entries);
}

describe("ledger redaction", () => {
  it("finds writeOnly properties through $refs, items and combinators", () => {
    expect(
      writeOnlyPointers({
        type: "object",
        properties: { a: { $ref: "#/$defs/s" }, b: { type: "array", items: { anyOf: [{ type: "object", properties: { k: { writeOnly: true } } }] } } },
        $defs: { s: { type: "string", writeOnly: true } },
      }),
    ).toEqual(["/a", "/b/*/k"]);
  });

  it("replaces secret names and writeOnly fields in raw and arguments, keeping everything else", async () => {
    const ledger = new MemorySink();
    const tool = defineTool(loginSpec()).implement(() => "in", { ledger });
    // A coerced pin: `arguments` is written, and must be redacted too.
    expect((await tool.call(JSON.stringify({ ...clean, pin: "9876" }), { turn: "t" })).status).toBe("ok");
    const written = text(ledger);
    for (const secret of SECRETS) expect(written).not.toContain(secret);
    const entry = ledger.last()!;
    expect(entry.arguments).toMatchObject({
      user: "ann",
      password: "[redacted]",
      apiKey: "[redacted]",
      pin: "[redacted]",
      max_tokens: 77,
      nested: [{ refresh_token: "[redacted]", note: "visible" }],
    });
    expect(JSON.parse(entry.attempts[0]!.raw)).toMatchObject({ user: "ann", password: "[redacted]", max_tokens: 77 });
    expect(entry.attempts[0]!.redacted).toBe(4);
    expect(entry.attempts[0]!.coercions).toEqual([{ path: "/pin", from: "[redacted]", to: "[redacted]", rule: "string->integer" }]);
  });

  it("replaces a raw text that is not JSON but names a secret field with a marker and its length", async () => {
    const ledger = new MemorySink();
    const tool = defineTool(loginSpec()).implement(() => "in", { ledger });
    const broken = `{"user": "ann", "X-API-Key": "sk-live-123", `;
    expect((await tool.call(broken, { turn: "t" })).status).toBe("validation_failed");
    expect(text(ledger)).not.toContain("sk-live-123");
    expect(ledger.last()!.attempts[0]!.raw).toBe(`[redacted] ${broken.length} characters that are not JSON and may name a secret field`);
  });

  it("catches a key spelled with \\u escapes", async () => {
    const ledger = new MemorySink();
    const tool = defineTool(loginSpec()).implement(() => "in", { ledger });
    await tool.call(String.raw`{"user": "ann", "pass\u0077ord": "hunter2"}`, { turn: "t" });
    expect(text(ledger)).not.toContain("hunter2");
  });

  it("skips the scan only where it cannot matter: a validated text under a closed schema without secret names", () => {
    const closed = {
      type: "object",
      properties: {
        note: { type: "string" },
        items: { type: "array", items: { type: "object", properties: { n: { type: "integer" } }, additionalProperties: false } },
      },
      additionalProperties: false,
    };
    const text = '{"note": "my password is hunter2"}';
    expect(new Redactor(closed).raw(text, true)).toEqual({ text, redacted: 0 });
    // The same schema with a secret property name, or open, is scanned.
    const withSecret = { ...closed, properties: { ...closed.properties, password: { type: "string" } } };
    expect(new Redactor(withSecret).raw('{"password": "hunter2"}', true).text).not.toContain("hunter2");
    expect(new Redactor({ type: "object" }).raw('{"password": "hunter2"}', true).text).not.toContain("hunter2");
    // A failed attempt is scanned whatever the schema.
    expect(new Redactor(closed).raw('{"password": "hunter2"}', false).text).not.toContain("hunter2");
  });

  it("follows local $refs when deciding that a schema is closed, recursive ones included", () => {
    const item = { type: "object", properties: { n: { type: "integer" } }, additionalProperties: false };
    const withDefs = (items: object, defs: object) => ({
      type: "object",
      properties: { note: { type: "string" }, items: { type: "array", items } },
      additionalProperties: false,
      $defs: defs,
    });
    // Told the text passed the schema, the redactor keeps it unscanned only when the schema proves
    // it holds no secret key; this one has one, so scanning shows.
    const text = '{"password": "hunter2"}';
    const kept = (schema: Record<string, unknown>): boolean => new Redactor(schema).raw(text, true).text === text;
    expect(kept(withDefs({ $ref: "#/$defs/item", description: "a line" }, { item }))).toBe(true);
    const tree = { type: "object", properties: { note: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }, additionalProperties: false };
    expect(kept(tree)).toBe(true);
    // An open target, a secret name behind the $ref, a $ref with keywords beside it, or one that points nowhere: scanned.
    expect(kept(withDefs({ $ref: "#/$defs/item" }, { item: { type: "object" } }))).toBe(false);
    expect(kept(withDefs({ $ref: "#/$defs/item" }, { item: { ...item, properties: { token: { type: "string" } } } }))).toBe(false);
    expect(kept(withDefs({ $ref: "#/$defs/item", properties: { n: { type: "integer" } } }, { item }))).toBe(false);
    expect(kept(withDefs({ $ref: "#/$defs/100%" }, { "100%": item }))).toBe(false);
    expect(writeOnlyPointers(withDefs({ $ref: "#/$defs/100%" }, {}))).toEqual([]);
    expect(writeOnlyPointers(withDefs({ $ref: "#/$defs/100%25" }, { "100%": { properties: { pin: { writeOnly: true } } } }))).toEqual(["/items/*/pin"]);
    expect(kept(withDefs({ $ref: "#/$defs/missing" }, { item }))).toBe(false);
    expect(kept({ ...tree, properties: { ...tree.properties, children: { type: "array", items: { $ref: "#/$defs/open" } } }, $defs: { open: {} } })).toBe(
      false,
    );
  });

  it("keeps a raw text without secrets byte for byte", async () => {
    const ledger = new MemorySink();
    const tool = defineTool(loginSpec()).implement(() => "in", { ledger });
    const raw = `{ "user" : "ann",  "max_tokens": 5 }`;
    await tool.call(raw, { turn: "t" });
    expect(ledger.last()!.attempts[0]!.raw).toBe(raw);
    expect(ledger.last()!.attempts[0]!.redacted).toBeUndefined();
  });

  it("can be extended by name and pointer, or turned off", async () => {
    const extended = new MemorySink();
    await defineTool(loginSpec())
      .implement(() => "in", { ledger: extended, redact: { fields: ["user"], pointers: ["/nested/*/note"] } })
      .call(JSON.stringify(clean), { turn: "t" });
    expect(text(extended)).not.toContain("ann");
    expect(text(extended)).not.toContain("visible");
    const off = new MemorySink();
    await defineTool(loginSpec())
      .implement(() => "in", { ledger: off, redact: false })
      .call(JSON.stringify(clean), { turn: "t" });
    for (const secret of SECRETS) expect(text(off)).toContain(secret);
  });

  it("creates the ledger file readable by its owner only (0600)", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "toolguard-ledger-")), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false });
    await defineTool(loginSpec())
      .implement(() => "in", { ledger })
      .call(JSON.stringify(clean), { turn: "t" });
    await ledger.close();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    for (const secret of SECRETS) expect(await readFile(path, "utf8")).not.toContain(secret);
  });
});

describe("ledger redaction without a scan", () => {
  it("redacts values under a writeOnly location that ends in `*` even when the text names no secret", async () => {
    const schema = { type: "object", properties: { cards: { type: "object", additionalProperties: { type: "string", writeOnly: true } } } };
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema) as unknown as StandaloneValidator;
    const spec: ToolSpec = {
      name: "wallet",
      description: "",
      inputSchema: schema as ToolSpec["inputSchema"],
      validate,
      coercions: {},
      hints: {},
      references: {},
    };
    const ledger = new MemorySink();
    await defineTool(spec)
      .implement(() => "in", { ledger })
      .call(JSON.stringify({ cards: { visa: "4111-1111" } }), { turn: "t" });
    expect(text(ledger)).not.toContain("4111-1111");
  });

  it("scans the arguments when a reference adds a secret key, though the raw text names none", async () => {
    const spec: ToolSpec = { ...loginSpec(), references: { "/user": { kind: "account", target: "session_token" } } };
    const ledger = new MemorySink();
    const tool = defineTool<unknown, unknown, "account">(spec).implement(() => "in", {
      ledger,
      resolvers: { account: () => [{ id: "tok-secret-1", label: "ann" }] },
    });
    // A coerced max_tokens: `arguments` is written.
    expect((await tool.call(JSON.stringify({ user: "ann", max_tokens: "5" }), { turn: "t" })).status).toBe("ok");
    expect(ledger.last()?.arguments).toMatchObject({ session_token: "[redacted]", max_tokens: 5 });
    expect(text(ledger)).not.toContain("tok-secret-1");
  });
  it("redacts an id resolved into a secret target though the raw text names no secret word at all", async () => {
    // Nothing in `{"user":"ann"}` mentions a secret: only the added key (session_token) does, so
    // the answer that depends on the added keys alone (kept per key set) must still say unsafe.
    const spec: ToolSpec = { ...loginSpec(), references: { "/user": { kind: "account", target: "session_token" } } };
    const ledger = new MemorySink();
    const tool = defineTool<unknown, unknown, "account">(spec).implement(() => "in", {
      ledger,
      resolvers: { account: () => [{ id: "tok-secret-2", label: "ann" }] },
    });
    for (let i = 0; i < 2; i++) expect((await tool.call(JSON.stringify({ user: "ann" }), { turn: `t${i}` })).status).toBe("ok");
    expect(text(ledger)).not.toContain("tok-secret-2");
  });

  it("redacts the candidates of a question whose chosen id would go to a secret target", async () => {
    const spec: ToolSpec = { ...loginSpec(), references: { "/user": { kind: "account", target: "session_token" } } };
    const ledger = new MemorySink();
    const tool = defineTool<unknown, unknown, "account">(spec).implement(() => "in", {
      ledger,
      resolvers: {
        account: () => [
          { id: "tok-secret-1", label: "ann (work)" },
          { id: "tok-secret-2", label: "ann (home)" },
        ],
      },
    });
    const outcome = await tool.call(JSON.stringify({ user: "ann" }), { turn: "t" });
    // The model is asked, with the real candidates: only the ledger copy is redacted.
    expect(JSON.stringify(outcome)).toContain("tok-secret-1");
    expect(ledger.last()?.attempts.at(-1)?.question).toEqual({
      field: "/user",
      target: "session_token",
      candidates: [
        { id: "[redacted]", label: "[redacted]" },
        { id: "[redacted]", label: "[redacted]" },
      ],
    });
    expect(text(ledger)).not.toContain("tok-secret");
  });

  it("keeps the candidates of a question whose target is not secret", async () => {
    const spec: ToolSpec = { ...loginSpec(), references: { "/user": { kind: "account", target: "account_id" } } };
    const ledger = new MemorySink();
    const tool = defineTool<unknown, unknown, "account">(spec).implement(() => "in", {
      ledger,
      resolvers: {
        account: () => [
          { id: "acc-1", label: "ann (work)" },
          { id: "acc-2", label: "ann (home)" },
        ],
      },
    });
    await tool.call(JSON.stringify({ user: "ann" }), { turn: "t" });
    expect(
      ledger
        .last()
        ?.attempts.at(-1)
        ?.question?.candidates.map((candidate) => candidate.id),
    ).toEqual(["acc-1", "acc-2"]);
  });
});

describe("a resolution's redaction, answered from the field seen last", () => {
  it("redacts a resolution into a secret target even right after the same field resolved into a plain one", () => {
    // The redactor keeps the last field (path and target) that needed nothing redacted; a
    // resolution that shares its path but not its target must still be looked at.
    const redactor = new Redactor({ type: "object" });
    const plain = [{ path: "/customer_ref", text: "Acme BV", id: "cus_1", target: "customer_id" }];
    const secret = [{ path: "/customer_ref", text: "Acme BV", id: "tok_1", target: "session_token" }];
    const secretField = [{ path: "/password", text: "hunter2", id: "cus_1", target: "customer_id" }];
    for (let round = 0; round < 2; round++) {
      expect(redactor.resolutions(plain)).toBe(plain);
      expect(redactor.resolutions(secret)).toEqual([{ ...secret[0], id: "[redacted]" }]);
      expect(redactor.resolutions(plain)).toBe(plain);
      expect(redactor.resolutions(secretField)).toEqual([{ ...secretField[0], text: "[redacted]", id: "[redacted]" }]);
    }
  });
});
