// What a JavaScript caller can get wrong that TypeScript refuses (call/binding-checks.ts): each is
// a TypeError naming the tool and what to pass, at bind time or as the call's rejection. A call
// without its context once threw inside the guard and left a rejected promise nobody handled,
// which ends a Node process; a negative maxDepth was taken, and refused every call as too deep.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import { invoiceSpec } from "./invoice-spec.ts";

type Bindable = {
  implement(
    implementation: unknown,
    options?: object,
  ): { call(raw: unknown, context?: unknown): Promise<unknown>; check(raw: unknown, context?: unknown): unknown; ready(): Promise<void> };
};

const loaded = defineTool(invoiceSpec()) as unknown as Bindable;
const generated = path.resolve(import.meta.dirname, "../../generated/index.js");

async function lazy(): Promise<Bindable> {
  return ((await import(pathToFileURL(generated).href)) as { tools: Record<string, Bindable> }).tools["search_tickets"] as Bindable;
}

describe("binding a tool", () => {
  it.each([
    ["a loaded tool", async () => loaded],
    ["a tool loaded on first use", lazy],
  ])("refuses, for %s, an implementation that is not a function and limits that are not positive", async (_kind, tool) => {
    const definition = await tool();
    expect(() => definition.implement(null)).toThrow(/implement\(implementation, options\) needs a function as the implementation, got null/);
    expect(() => definition.implement("run")).toThrow(/got "run"/);
    for (const [option, value] of [
      ["maxDepth", -1],
      ["maxBytes", 0],
      ["maxErrors", 2.5],
      ["maxLedgerTextChars", "100"],
      ["resolverTimeoutMs", Number.NaN],
    ] as const) {
      expect(() => definition.implement(() => "ran", { [option]: value }), option).toThrow(new RegExp(`option ${option} must be a positive`));
    }
    expect(() => definition.implement(() => "ran", { maxDepth: 3, resolverTimeoutMs: 2.5, ledger: new MemorySink() })).not.toThrow();
  });
});

describe("calling a tool without its context", () => {
  it.each([
    ["a loaded tool", async () => loaded],
    ["a tool loaded on first use", lazy],
  ])("rejects, for %s, a call with no string turn, and check throws", async (_kind, tool) => {
    const bound = (await tool()).implement(() => "ran", { ledger: new MemorySink(), resolvers: { customer: () => [] } });
    await bound.ready();
    for (const context of [undefined, null, {}, { turn: 5 }, "t1"]) {
      await expect(bound.call("{}", context)).rejects.toThrow(/call\(raw, context\) needs a context with a string turn/);
      expect(() => bound.check("{}", context)).toThrow(/check\(raw, context\) needs a context with a string turn/);
    }
    await expect(bound.call("{}", { turn: "t" })).resolves.toHaveProperty("status");
  });
});
