// The schema's writeOnly locations are found at build time and written into the tool module,
// and the generated tool redacts them in its ledger.
import { pathToFileURL } from "node:url";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpTool, TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => project?.remove());

describe("writeOnly at build time", () => {
  it("emits the writeOnly pointers into the tool module, and the generated guard redacts them", async () => {
    const schema = {
      type: "object",
      properties: {
        user: { type: "string" },
        pin: { type: "string", writeOnly: true },
        cards: { type: "array", items: { type: "object", properties: { cvc: { type: "string", writeOnly: true } } } },
      },
      required: ["user"],
    };
    project = new TempProject({ "schemas/enrol.json": mcpTool("enrol", schema) });
    const result = await project.run("generate");
    expect(result.code).toBe(0);
    const module = project.read("generated/tools/enrol.js");
    expect(module).toMatch(/const writeOnly = \[\s*"\/cards\/\*\/cvc",\s*"\/pin",?\s*\]/);
    const pkg = (await import(pathToFileURL(path.join(project.dir, "generated/index.js")).href)) as {
      tools: Record<string, { implement(impl: () => unknown, options: object): { call(raw: string, context: { turn: string }): Promise<unknown> } }>;
      MemorySink: new () => { entries: unknown[] };
    };
    const ledger = new pkg.MemorySink();
    await pkg.tools.enrol!.implement(() => "ok", { ledger }).call(JSON.stringify({ user: "ann", pin: "4321", cards: [{ cvc: "987" }] }), { turn: "t" });
    const written = JSON.stringify(ledger.entries);
    expect(written).toContain("ann");
    expect(written).not.toContain("4321");
    expect(written).not.toContain("987");
  });
});
