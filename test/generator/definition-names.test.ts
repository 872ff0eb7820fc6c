// A definition may have any name, `%` included: its `$ref` is a URI fragment, so the generator
// writes `%` as `%25` there (and ajv decodes it back). A name with `%` once made the schema fail
// to compile ("URI contains malformed percent-encoding", or a `$ref` that resolved nowhere), and
// errors inside such a definition lost their hints.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpTool, TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => project?.remove());

const counted = { type: "object", properties: { n: { type: "integer", description: "count" } }, required: ["n"], additionalProperties: false };

function toolUsing(name: string): Record<string, unknown> {
  const ref = `#/$defs/${encodeURIComponent(name.replaceAll("~", "~0").replaceAll("/", "~1"))}`;
  return mcpTool("counter", { type: "object", properties: { a: { $ref: ref } }, required: ["a"], $defs: { [name]: counted } });
}

describe("definition names", () => {
  it.each(["100%", "a%20b", "50% off / sale", "plain"])("a definition named %j generates, guards and explains", async (name) => {
    project = new TempProject({ "schemas/t.json": toolUsing(name) });
    const result = await project.run("generate");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const probe = `const { tools } = await import(${JSON.stringify(`file://${path.join(project.dir, "generated/index.js")}`)});
const g = tools.counter.implement(() => "ran", { ledger: { append() {} } });
const answers = [];
for (const raw of ['{"a":{"n":1}}', '{"a":{}}', '{"a":{"n":1,"x":2}}']) answers.push(await g.call(raw, { turn: raw }));
console.log(JSON.stringify(answers.map((o) => [o.status, ...(o.errors ?? []).map((e) => e.message)])));`;
    const answers = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" })) as string[][];
    expect(answers[0]).toEqual(["ok"]);
    // The definition's own hints reach the model: the field's description, and what the object accepts.
    expect(answers[1]?.[1]).toContain('missing required field "n" (count)');
    expect(answers[2]?.[1]).toContain("This object accepts only n");
  });
});
