// A field whose name reads as a secret but whose schema lists every value it takes (an enum, a
// const, a boolean): Auth0's `token_endpoint_auth_method`, Mistral's `credentials.oauth.grant_type`.
// Every value of such a field is public, in the schema, so the envelope may compare the hidden
// text with those values and offer the one meant, the list, or the sibling it belongs to; it
// never quotes the text itself, in the envelope, the ledger line or a span. A free-form secret
// (no listed set) still hears only the rule. docs/errors.md, "Secret-named fields".
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { roundTrip, tool } from "./round-trip.ts";

afterAll(removeLoadedModules);
afterEach(() => trace.disable());

const METHODS = ["none", "client_secret_post", "client_secret_basic", "private_key_jwt"];
const client = tool("create_client", {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string" },
    token_endpoint_auth_method: { type: "string", enum: METHODS },
    app_type: { type: "string", enum: ["native", "spa", "regular_web", "non_interactive"] },
    credentials: {
      type: "object",
      additionalProperties: false,
      properties: {
        grant_type: { const: "client_credentials" },
        scope: { anyOf: [{ enum: ["read", "write"] }, { enum: ["admin"] }] },
        secret: { type: "string", minLength: 32 },
        passphrase_mode: { anyOf: [{ enum: ["plain", "hashed"] }, { type: "string", pattern: "^x-" }] },
      },
    },
    // A union the coercions leave alone (they read `"true"` only where one boolean is wanted).
    rotate_token: { anyOf: [{ type: "boolean" }, { type: "integer", minimum: 0 }] },
    token_lifetime: { type: "integer" },
    client_secret: { type: "string", maxLength: 8 },
  },
});

describe("a secret-named field whose schema lists its values", () => {
  it.each([
    ["client_secret_pst", "client_secret_post"],
    ["CLIENT_SECRET_BASIC", "client_secret_basic"],
    ["private_key", "private_key_jwt"],
  ])("%s hears the value meant, never its own text", async (text, meant) => {
    const { errors, repaired, after } = await roundTrip(client, { name: "app", token_endpoint_auth_method: text });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe("/token_endpoint_auth_method");
    expect(errors[0]?.message).toBe(
      `got string (not shown: a secret field); must be one of ${JSON.stringify(METHODS).replaceAll(",", ", ")} — did you mean ${JSON.stringify(meant)}?`,
    );
    if (!METHODS.some((value) => value.includes(text))) expect(JSON.stringify(errors)).not.toContain(text);
    expect(repaired).toEqual({ name: "app", token_endpoint_auth_method: meant });
    expect(after).toBeUndefined();
  });

  it("a const and a union of listed values under a secret-named object, and a boolean spelt as text", async () => {
    const { errors, repaired, after } = await roundTrip(client, {
      name: "app",
      credentials: { grant_type: "client-credentials", scope: "wirte" },
      rotate_token: "True",
    });
    expect(errors.map((error) => [error.path, error.message])).toEqual([
      ["/credentials/grant_type", 'got string (not shown: a secret field); must be exactly "client_credentials"'],
      [
        "/credentials/scope",
        'got string (not shown: a secret field); it matches none of the allowed shapes; allowed values: ["read", "write", "admin"] — did you mean "write"?',
      ],
      [
        "/rotate_token",
        "got string (not shown: a secret field); it matches none of the allowed shapes (accepted types: number, boolean): the text is a boolean written as text, not a JSON boolean: send true, without quotes",
      ],
    ]);
    expect(repaired).toMatchObject({ credentials: { grant_type: "client_credentials", scope: "write" }, rotate_token: true });
    expect(after).toBeUndefined();
  });

  it("a listed value of a sibling, sent under the secret-named field, is moved there", async () => {
    const { errors, repaired } = await roundTrip(client, { name: "app", token_endpoint_auth_method: "spa" });
    expect(errors[0]?.message).toMatch(/^got string \(not shown: a secret field\); must be one of .*\. It is a value of \/app_type: move it to \/app_type$/);
    expect(repaired).toEqual({ name: "app", app_type: "spa" });
  });

  it("a free-form secret, a number, or a union beside a pattern still hears only the rule", async () => {
    const free = await roundTrip(client, { name: "app", client_secret: "client_secret_post_long", token_lifetime: "5 kg" });
    const texts = JSON.stringify(free.errors);
    expect(texts).not.toMatch(/client_secret_post_long|did you mean|\b5\b/);
    expect(free.errors.map((error) => error.message)).toEqual([
      "got string (not shown: a secret field); must be at most 8 characters long",
      "expected integer, got string (not shown: a secret field); send it as integer",
    ]);
    const mixed = await roundTrip(client, { name: "app", credentials: { passphrase_mode: "plian" } });
    expect(JSON.stringify(mixed.errors)).not.toMatch(/plian|did you mean/);
    // A text no listed value is near is not read as one either.
    const far = await roundTrip(client, { name: "app", token_endpoint_auth_method: "hunter2-zebra" });
    expect(far.errors[0]?.message).not.toMatch(/did you mean|hunter2/);
  });
});

describe("the hidden text reaches no output", () => {
  it("is in neither the envelope, the ledger line nor a span", async () => {
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }));
    const path = join(await mkdtemp(join(tmpdir(), "toolguard-secret-listed-")), "ledger.jsonl");
    const ledger = new JsonlFileSink({ path, sync: false });
    const loaded = await loadTool(client, { ledger });
    // Near misses of listed values (each offered), and a free-form secret beside them.
    const sent = {
      name: "app",
      token_endpoint_auth_method: "clientSecretPst9",
      credentials: { grant_type: "client_credentialz", secret: "zebra-horse" },
      rotate_token: "TRUE",
    };
    const errors = await loaded.envelope(sent);
    // A text near no listed value, in the same field: read, and still never quoted.
    const far = await loaded.envelope({ name: "app", token_endpoint_auth_method: "zebra-horse-battery" });
    await ledger.close();
    const envelope = JSON.stringify([errors, far]);
    expect(errors?.map((error) => error.message).join("\n")).toContain('did you mean "client_secret_post"?');
    const line = await readFile(path, "utf8");
    const recorded = JSON.stringify(spans.getFinishedSpans().map((span) => [span.name, span.attributes, span.events, span.status]));
    expect(line.length).toBeGreaterThan(0);
    expect(recorded).toContain("validation_failed");
    for (const text of ["clientSecretPst9", "client_credentialz", "zebra-horse", "TRUE", "battery"]) {
      expect(envelope, text).not.toContain(text);
      expect(line, text).not.toContain(text);
      expect(recorded, text).not.toContain(text);
    }
  });
});
