// Issue 27, finding 5: secret words are matched as parts of snake_case and camelCase names,
// header and cookie parameters are redacted by location, and no secret value (secret-named,
// `writeOnly`, a header or cookie parameter) is ever quoted back in an envelope to the model.
import { beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { HttpBinding, InputSchema, StandaloneValidator } from "../../templates/runtime/contract/tool-spec.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { Redactor } from "../../templates/runtime/ledger/redact.ts";
import { emitAndLoad } from "../hostile/load-validator.ts";

const SECRETS = {
  password_confirmation: "s3cr3t-confirm",
  passwordConfirmation: "s3cr3t-camel",
  otp: "918273",
  otp_code: "564738",
  jwt: "eyJhbGciOi.secret.jwt",
  bearer: "bearer-value-77",
  pwd: "pwd-value-88",
  cvv: "737",
  card_number: "4111111111111111",
  cardNumber: "5500005555555559",
  apiKey: "key-apikey-99",
  "x-api-key": "key-header-11",
  user_pin: "2468",
  mfaCode: "135790",
};

describe("secret names as words of a name", () => {
  const redactor = new Redactor({ type: "object" });
  it.each(Object.keys(SECRETS))("%s is secret", (name) => {
    expect(redactor.isSecretPath(`/${name}`)).toBe(true);
  });
  it.each(["max_tokens", "tokenizer", "options", "spin", "laptop", "author", "pinned_repo", "description"])("%s is not", (name) => {
    expect(redactor.isSecretPath(`/${name}`)).toBe(false);
  });
});

const properties: Record<string, unknown> = Object.fromEntries(Object.keys(SECRETS).map((name) => [name, { type: "string" }]));
const SCHEMA = {
  type: "object",
  properties: {
    ...properties,
    note: { type: "string" },
    session: { type: "string" },
    tenant_sig: { type: "string" },
    login: { type: "string", writeOnly: true, minLength: 12 },
    pin: { type: "integer" },
    "api:key": { type: "string" },
    profile: { type: "object", properties: { password: { type: "string" }, age: { type: "integer" } } },
  },
  additionalProperties: false,
};
const HTTP: HttpBinding = {
  method: "post",
  path: "/login",
  servers: ["https://api.example.com"],
  parameters: [
    { arg: "session", name: "session", in: "cookie", style: "form", explode: true },
    { arg: "tenant_sig", name: "X-Tenant-Signature", in: "header", style: "simple", explode: false },
  ],
};

let validate: StandaloneValidator;
beforeAll(async () => {
  validate = (await emitAndLoad(SCHEMA)).validate as unknown as StandaloneValidator;
});

function tool(ledger: MemorySink) {
  const spec = {
    name: "login",
    description: "",
    inputSchema: SCHEMA as unknown as InputSchema,
    validate,
    coercions: {},
    hints: {},
    references: {},
    http: HTTP,
  };
  return defineTool(spec).implement(() => "ok", { ledger });
}

describe("the ledger", () => {
  it("writes none of the secret values, header and cookie parameters included, and keeps the rest", async () => {
    const ledger = new MemorySink();
    const args = { ...SECRETS, note: "visible-note", session: "cookie-session-42", tenant_sig: "header-sig-43" };
    expect(await tool(ledger).call(JSON.stringify(args), { turn: "t" })).toMatchObject({ status: "ok" });
    // Without the chain id and the time: they are random hex and clock digits, which a short
    // numeric secret ("737", "2468") can occur in by chance (a chain id read "...-4737-...").
    const written = JSON.stringify(ledger.entries, (key, value) => (key === "chain" || key === "startedAt" ? undefined : value));
    expect(written).toContain("visible-note");
    for (const value of [...Object.values(SECRETS), "cookie-session-42", "header-sig-43"]) expect(written, value).not.toContain(value);
  });
});

describe("the raw text's scan for secret names", () => {
  // A key is secret when a name is among its words, which any character but an ASCII letter or
  // digit may split, and lower-casing may turn a character outside ASCII into a name's letter: the
  // scan that lets a raw text be written unread must see every such key.
  const redactor = new Redactor({ type: "object" });
  it.each(["api:key", "api/key", "x|token", "client~secret", "ap\u0130key", "api\u212aey"])("keeps no secret under %s", (spelt) => {
    const key = JSON.parse(`"${spelt}"`) as string;
    expect(redactor.isSecretPath(`/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`), "a secret key").toBe(true);
    for (const text of [JSON.stringify({ [key]: "s3cret-value-1" }), `{"${spelt}": "s3cret-value-1"}`]) {
      expect(redactor.raw(text).text, text).not.toContain("s3cret-value-1");
      expect(redactor.rawIsKept(text, false), text).toBe(false);
    }
  });

  it("still keeps a text unread that names no secret", () => {
    expect(redactor.rawIsKept(`{"note":"visible","count":5,"tags":["a-b","c d"]}`, false)).toBe(true);
  });

  it("writes no secret of a failed call whose key the old scan did not see", async () => {
    const ledger = new MemorySink();
    await tool(ledger).call(JSON.stringify({ "api:key": 5150 }), { turn: "ledger-colon" });
    expect(JSON.stringify(ledger.entries)).not.toContain("5150");
  });
});

describe("the envelope to the model", () => {
  it("does not quote a writeOnly value, a secret-named value or a secret inside a quoted object", async () => {
    const ledger = new MemorySink();
    const outcome = await tool(ledger).call(
      JSON.stringify({ login: "hunter2", pin: "#8642", card_number: 4111111111111111, profile: "password=zebra-horse" }),
      { turn: "t" },
    );
    expect(outcome.status).toBe("validation_failed");
    const envelope = JSON.stringify(outcome);
    for (const value of ["hunter2", "8642", "4111111111111111"]) expect(envelope, value).not.toContain(value);
    // The rule and where are still said: the model can repair.
    expect(envelope).toContain("/login");
    expect(envelope).toContain("at least 12 characters");
    expect(envelope).toContain("got integer (not shown: a secret field)");
    const nested = await tool(ledger).call(JSON.stringify({ profile: { password: "zebra-horse-9", age: "old" }, note: 5 }), { turn: "u" });
    expect(JSON.stringify(nested)).not.toContain("zebra-horse-9");
  });

  it("does not quote a secret whose name the text's secret-name scan does not see, nor a header parameter", async () => {
    // `api:key` is a secret name read as words (`api key`), which the raw-text scan (separators
    // `-`, `_`, `.` and spaces) does not match: the envelope asks the parsed value's keys.
    const ledger = new MemorySink();
    for (const args of [{ "api:key": 5150 }, { tenant_sig: 4343 }]) {
      const envelope = JSON.stringify(await tool(ledger).call(JSON.stringify(args), { turn: `c-${Object.keys(args)[0]}` }));
      expect(envelope).toContain("got integer (not shown: a secret field)");
      expect(envelope).not.toMatch(/5150|4343/);
    }
  });

  it("does not quote a secret's text when the arguments are not JSON, and still quotes other text", async () => {
    const ledger = new MemorySink();
    for (const raw of ['{"otp_code": hunter-two}', '{"apiKey": sklive_abc}', '{"note": "x", "cvv": 07x37}']) {
      const outcome = await tool(ledger).call(raw, { turn: `s-${raw}` });
      expect(outcome.status).toBe("validation_failed");
      const envelope = JSON.stringify(outcome);
      for (const value of ["hunter", "sklive_abc", "07x37"]) expect(envelope, raw).not.toContain(value);
      expect(envelope, raw).toContain("not shown: a secret field");
    }
    // Outside a secret location the diagnosis quotes what it found, as a repair needs.
    const plain = JSON.stringify(await tool(ledger).call('{"note": visible-text}', { turn: "p" }));
    expect(plain).toContain(String.raw`unquoted text \"visible\"`);
  });
});
