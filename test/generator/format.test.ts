// The index declarations are formatted with prettier's babel-ts parser, for speed: it must print
// them exactly as the typescript parser would.
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { emitPackageFiles } from "../../generator/emit/package-files.ts";
import { formatTs } from "../../generator/format.ts";
import type { ToolDescription } from "../../generator/ir.ts";

const names = ["lookup", "issues_create", "repos_create-for-authenticated-user", `actions_${"very-long-name-".repeat(4)}x`, "a", "Z9"];

function tool(name: string, withReference: boolean): ToolDescription {
  return {
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: "object" },
    dialect: "2020-12",
    references: withReference ? { "/customer": { kind: "customer", target: "customer_id" } } : {},
    source: { file: `${name}.json`, pointer: "" },
  } as unknown as ToolDescription;
}

describe("formatTs", () => {
  it("prints the index declarations as prettier's typescript parser does", async () => {
    const set = { schemas: "schemas", out: "generated", packageName: "tools" } as never;
    const files = await emitPackageFiles(
      set,
      names.map((name, index) => tool(name, index % 2 === 0)),
    );
    const dts = files.find((file) => file.path === "index.d.ts")?.content ?? "";
    const body = dts.split("\n").slice(3).join("\n");
    expect(body).toContain("export declare const tools");
    const options = { printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;
    expect(await formatTs(body)).toBe(await format(body, { ...options, parser: "typescript" }));
    const unformatted = body.replace(/\n\s+/g, " ");
    expect(await formatTs(unformatted)).toBe(await format(unformatted, { ...options, parser: "typescript" }));
  });
});
