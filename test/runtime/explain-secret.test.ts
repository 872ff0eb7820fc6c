// The envelope's advice on fields whose name reads as a secret (`api_key_ids`, `client_secret`),
// as `toolguard rehearse` found it on OpenAI's API description: the value is shown only as its
// type, yet the advice must still be whole and true: no "got undefined undefined" for a value
// inside a secret list, no hidden value offered as JSON to send, and "omit it" for a null.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { type LoadedTool, loadTool, removeLoadedModules } from "../../generator/rehearse/load-tool.ts";

// Through the generator's own validator and hint table, as a generated package's tool has them:
// whether a field is optional comes from the hints.
const tool: ToolDescription = {
  name: "login",
  description: "Log in",
  dialect: "2020-12",
  references: {},
  source: { file: "login.json", pointer: "" },
  inputSchema: {
    type: "object",
    properties: {
      user: { type: "string" },
      api_key_ids: { type: "array", items: { type: "string" } },
      client_secret: { type: "string" },
      credentials: { type: "object", properties: { user: { type: "string" }, pin: { type: "integer" } } },
    },
    required: ["user"],
    additionalProperties: false,
  },
};

let loaded: LoadedTool;
beforeAll(async () => {
  loaded = await loadTool(tool);
});
afterAll(removeLoadedModules);

/** The message of the error at `path` for the arguments `args`. */
async function messageAt(args: Record<string, unknown>, path: string): Promise<string> {
  const errors = (await loaded.envelope({ user: "alpha", ...args })) ?? [];
  const error = errors.find((candidate) => candidate.path === path);
  expect(error, JSON.stringify(errors)).toBeDefined();
  return (error as { message: string }).message;
}

describe("advice on a secret field", () => {
  it("names the type of a wrong value inside a secret list or object, never undefined", async () => {
    const item = await messageAt({ api_key_ids: ["key-visible", 4242] }, "/api_key_ids/1");
    expect(item).toBe("expected string, got integer (not shown: a secret field); send it as string");
    const member = await messageAt({ credentials: { user: "bob", pin: ["8642"] } }, "/credentials/pin");
    expect(member).not.toContain("undefined");
    expect(member).toContain("got array (not shown: a secret field)");
    expect(member).not.toContain("8642");
  });

  it("asks for a list of one without offering anything as the value to send", async () => {
    const message = await messageAt({ api_key_ids: "key-one-77" }, "/api_key_ids");
    expect(message).not.toContain("key-one-77");
    expect(message).not.toMatch(/send \[\{/);
    expect(message).toBe(
      "expected array, got string (not shown: a secret field); send a JSON array: a single value goes in brackets, so send the same string inside [ and ]",
    );
  });

  it("says omit it for a null in an optional secret field, as for any optional field", async () => {
    expect(await messageAt({ client_secret: null }, "/client_secret")).toBe(
      "expected string, got null; this field is optional: omit it rather than sending null",
    );
    expect(await messageAt({ api_key_ids: null }, "/api_key_ids")).toBe("expected array, got null; this field is optional: omit it rather than sending null");
  });
});
