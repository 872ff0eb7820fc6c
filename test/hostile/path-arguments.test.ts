// Issue 15, finding 3, seen from the model's side: a path argument that would take the request
// outside the operation's path (`..`, `%2e.`, empty) is a validation problem at that argument,
// answered by a validation_failed envelope the model can repair, never a rejected call, and the
// implementation (the HTTP dispatcher here) is not reached.
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { HttpBinding, InputSchema, StandaloneValidator } from "../../templates/runtime/contract/tool-spec.ts";
import { createHttpDispatcher } from "../../templates/runtime/dispatch/http-dispatch.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { emitAndLoad } from "./load-validator.ts";

const SCHEMA = {
  type: "object",
  properties: { owner: { type: "string" }, repo: { type: "string" }, id: { type: "integer" }, title: { type: "string" } },
  required: ["owner", "repo", "id"],
};
const HTTP: HttpBinding = {
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{id}",
  servers: ["https://api.example.com/api/v3"],
  parameters: [
    { arg: "owner", name: "owner", in: "path", style: "simple", explode: false },
    { arg: "repo", name: "repo", in: "path", style: "simple", explode: false },
    { arg: "id", name: "id", in: "path", style: "simple", explode: false },
  ],
};

async function tool() {
  const { validate } = await emitAndLoad(SCHEMA);
  const spec = {
    name: "issues",
    description: "",
    inputSchema: SCHEMA as unknown as InputSchema,
    validate: validate as unknown as StandaloneValidator,
    coercions: {},
    hints: {},
    references: {},
    http: HTTP,
  };
  const sent: string[] = [];
  const dispatch = createHttpDispatcher({
    fetch: (async (url: URL) => {
      sent.push(String(url));
      return new Response(null, { status: 204 });
    }) as typeof fetch,
  });
  const guarded = defineTool<Record<string, unknown>>(spec).implement((args, ctx) => dispatch(HTTP, args, ctx.signal), { ledger: new MemorySink() });
  return { guarded, sent };
}

let turn = 0;
describe("a path argument that would leave the operation's path", () => {
  it.each([
    [{ owner: "..", repo: "x", id: 1 }, "/owner", '".."'],
    [{ owner: "octo", repo: ".", id: 1 }, "/repo", '"."'],
    [{ owner: "%2e%2e", repo: "x", id: 1 }, "/owner", "%2e%2e"],
    [{ owner: "octo", repo: "%2E.", id: 1 }, "/repo", "%2E."],
    [{ owner: "", repo: "x", id: 1 }, "/owner", "empty"],
  ])("%j is a validation problem at %s", async (args, path, mentioned) => {
    const { guarded, sent } = await tool();
    const outcome = await guarded.call(JSON.stringify(args), { turn: `t${turn++}` });
    expect(outcome).toMatchObject({ status: "validation_failed", errors: [{ path, rule: "path_segment" }] });
    if (outcome.status === "validation_failed") expect(outcome.errors[0]?.message).toContain(mentioned);
    expect(sent).toEqual([]);
  });

  it("a real value then reaches the dispatcher, within the repair budget", async () => {
    const { guarded, sent } = await tool();
    const context = { turn: `t${turn++}` };
    expect((await guarded.call('{"owner": "..", "repo": "..", "id": 7}', context)).status).toBe("validation_failed");
    const outcome = await guarded.call('{"owner": "octo.org", "repo": "hello", "id": 7}', context);
    expect(outcome).toMatchObject({ status: "ok", attempts: 2 });
    expect(sent).toEqual(["https://api.example.com/api/v3/repos/octo.org/hello/issues/7"]);
  });

  it("check answers the same, without a promise", async () => {
    const { guarded } = await tool();
    const result = guarded.check('{"owner": "octo", "repo": "..", "id": 7}', { turn: `t${turn++}` });
    expect(result).toMatchObject({ ok: false, outcome: { status: "validation_failed", errors: [{ path: "/repo", rule: "path_segment" }] } });
  });
});
