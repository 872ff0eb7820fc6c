// Tools loaded on first use (issue 16): the package index takes every tool from catalog.js, which
// holds each tool's name, description and input schema as data; binding every tool imports no
// tool module, and a tool's validator and tables load on its first call. Shown with a copy of
// the committed package whose tool modules, but one, refuse to load.
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const copy = path.join(repo, ".scratch", `lazy-tools-${process.pid}`);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

type Guarded = {
  call(raw: unknown, context: object): Promise<{ status: string }>;
  check(raw: unknown, context: object): { ok: boolean };
  ready(): Promise<void>;
};
type Package = {
  tools: Record<string, { name: string; inputSchema: object; implement(impl: () => unknown, options?: object): Guarded }>;
  toolDefinitions: readonly { name: string; inputSchema: object }[];
};

async function poisonedCopy(keep: string): Promise<Package> {
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(path.join(repo, "generated"), copy, { recursive: true });
  for (const file of readdirSync(path.join(copy, "tools"))) {
    if (file.endsWith(".js") && file !== keep) writeFileSync(path.join(copy, "tools", file), `throw new Error("tools/${file} was loaded");\n`);
  }
  return (await import(pathToFileURL(path.join(copy, "index.js")).href)) as Package;
}

describe("tools loaded on first use", () => {
  it("binds every tool and lists every schema without importing a tool module; a call loads only its tool", async () => {
    const pkg = await poisonedCopy("schedule-meeting.js");
    const ledger = { append: () => undefined, flush: () => Promise.resolve(), close: () => Promise.resolve() };
    const resolvers = { customer: () => [] };
    const bound = Object.fromEntries(Object.entries(pkg.tools).map(([name, tool]) => [name, tool.implement(() => "done", { ledger, resolvers })]));
    expect(Object.keys(bound)).toHaveLength(4);
    expect(pkg.toolDefinitions.map((tool) => (tool.inputSchema as { type?: string }).type)).toEqual(["object", "object", "object", "object"]);

    const meeting = bound.schedule_meeting as Guarded;
    expect(() => meeting.check("{}", { turn: "t" })).toThrow(/ready\(\)/);
    const outcome = await meeting.call("{}", { turn: "t" });
    expect(outcome.status).toBe("validation_failed");
    // Once loaded, the synchronous guard is there.
    expect(meeting.check("{}", { turn: "t2" }).ok).toBe(false);
    await expect((bound.create_invoice as Guarded).call("{}", { turn: "t" })).rejects.toThrow(/create-invoice\.js was loaded/);
  });

  it("still asks for a tool's resolvers when it is bound, before it is loaded", async () => {
    const pkg = await poisonedCopy("none");
    expect(() => pkg.tools.create_invoice?.implement(() => "done")).toThrow(/needs a resolver for reference kind "customer"/);
  });
});
