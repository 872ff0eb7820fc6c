// The package index laid out without prettier (emit/layout/index-layout.ts) is what prettier makes of
// the same index, for the shipped schemas, for names long enough to break every line prettier
// breaks, and for random sets of tool names.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { layOutIndex } from "../../generator/emit/layout/index-layout.ts";
import { formatIndex, indexEntries, indexSource, type PackageTool } from "../../generator/emit/package-files.ts";
import { TOOL_NAME } from "../../generator/read/tool-file.ts";

const reference = { customer_ref: { kind: "customer", target: "customer_id" } } as unknown as PackageTool["references"];

function tools(names: readonly string[], withReferences: (name: string) => boolean = () => false): PackageTool[] {
  return [...new Set(names)].sort().map((name) => ({ name, description: "", inputSchema: {}, references: withReferences(name) ? reference : {} }));
}

async function expectPrettierLayout(set: readonly PackageTool[]): Promise<void> {
  const entries = indexEntries(set);
  const laidOut = layOutIndex(entries);
  expect(laidOut).toBeDefined();
  const [js, dts] = await formatIndex(indexSource(entries));
  expect(laidOut?.js).toBe(js);
  expect(laidOut?.dts).toBe(dts);
}

describe("the package index, laid out without prettier", () => {
  it("is prettier's layout for the shipped schemas' names", async () => {
    await expectPrettierLayout(tools(["create_invoice", "schedule_meeting", "search_tickets", "update_org_chart"], (name) => name === "create_invoice"));
  });

  it("is prettier's layout at the edges of its rules", async () => {
    const long = "a".repeat(64);
    const cases: string[][] = [
      ["a"],
      ["ab", "c-d"],
      ["class", "default", "new-tool"],
      [long],
      [`${"b".repeat(60)}-tool`, `${"c".repeat(63)}`],
      ["abcd", `abcd-${"e".repeat(59)}`, "x"],
      Array.from({ length: 12 }, (_, index) => `tool_${index}`),
      ["issues/create".replace("/", "_"), "pulls_create", "repos_create-for-authenticated-user"],
    ];
    for (const names of cases) {
      await expectPrettierLayout(tools(names));
      await expectPrettierLayout(tools(names, () => true));
    }
    // Every width of `export const tools = Object.freeze({ k: v });` and of a property around 100 columns.
    for (let length = 20; length <= 64; length++) {
      await expectPrettierLayout(tools([`x${"y".repeat(length - 1)}`], () => length % 2 === 0));
      await expectPrettierLayout(tools([`x${"y".repeat(length - 1)}`, `z-${"w".repeat(length - 2)}`], () => length % 3 === 0));
    }
  });

  it("is prettier's layout for random tool names", async () => {
    const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/).filter((text) => TOOL_NAME.test(text));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 1, maxLength: 8 }), fc.boolean(), async (names, references) => {
        await expectPrettierLayout(tools(names, (text) => references && text.length % 2 === 0));
      }),
      { numRuns: 150 },
    );
  });

  it("leaves names prettier may print as numbers, and an empty set, to prettier", () => {
    expect(layOutIndex([])).toBeUndefined();
    expect(layOutIndex(indexEntries(tools(["123"])))).toBeUndefined();
    expect(layOutIndex(indexEntries(tools(["3d_render", "a"])))).toBeUndefined();
  });
});
