// A tool emits every shared module it imports, and the package keeps one copy of each path. On a
// large interlinked description most tools import the same large module (Elasticsearch's query
// DSL), so the copies held while the other tools are emitted must be the first one, not one each:
// that is what kept generation's peak memory over 1 GB there.
import { describe, expect, it } from "vitest";
import { SharedModuleCopies, withSharedModulesOnce } from "../../generator/emit/shared-modules.ts";

const shared = (name: string, content: string) => ({ path: `tools/shared/${name}.js`, content });

describe("SharedModuleCopies", () => {
  it("hands back the first copy of a shared module that arrives again with the same bytes", () => {
    const copies = new SharedModuleCopies();
    const first = shared("query-abc", "export function q() {}\n".repeat(3));
    const [kept] = copies.keepFirst([first]);
    // A second tool's copy: equal text in another string object, as a worker's message gives it.
    const again = shared("query-abc", ["export function q() {}\n", "export function q() {}\n", "export function q() {}\n"].join(""));
    const [second] = copies.keepFirst([again]);
    expect(kept).toBe(first);
    expect(second).toBe(first);
    expect(second).not.toBe(again);
  });

  it("leaves a tool's own files alone, even at a path seen before", () => {
    const copies = new SharedModuleCopies();
    const own = { path: "tools/create_invoice.js", content: "a" };
    copies.keepFirst([own]);
    const again = { path: "tools/create_invoice.js", content: "a" };
    expect(copies.keepFirst([again])[0]).toBe(again);
  });

  it("passes a copy with other bytes through, so that the package still stops on it", () => {
    const copies = new SharedModuleCopies();
    const first = copies.keepFirst([shared("money-1", "one")]);
    const other = copies.keepFirst([shared("money-1", "two")]);
    expect(other[0]?.content).toBe("two");
    expect(() => withSharedModulesOnce([...first, ...other])).toThrow(/two tools emitted tools\/shared\/money-1\.js with different contents/);
  });
});
