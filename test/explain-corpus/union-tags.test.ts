// Issue 31's two union-tag classes (a union member with its tag left out, or naming another
// member), on every tagged union of the corpus's tools: the captured MCP servers, GitHub's API,
// and OpenAI's description (test/explain-corpus/mistakes/union-tools.ts), which holds most of
// them. The mistake generator makes, for each member of each tagged union, a valid call holding
// it (generator/rehearse/mistakes/union-calls.ts), then mutates its tag; the literal repairer
// scores the envelope. The main corpus (mistakes.test.ts) met one union of each kind.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import type { EnvelopeError } from "../../generator/rehearse/literal-repairer.ts";
import { loadTool } from "../../generator/rehearse/load-tool.ts";
import { type CorpusCase, repairable } from "../../generator/rehearse/mistake-case.ts";
import type { Schema } from "../../generator/rehearse/mistakes/schema-view.ts";
import { carries } from "../../generator/rehearse/mistakes/scoring.ts";
import { seeded, seedOf } from "../../generator/rehearse/mistakes/seeded.ts";
import { taggedUnions, UNION_TAG_CLASSES, unionMemberCalls, unionTagMistakes } from "../../generator/rehearse/mistakes/union-calls.ts";
import { repairedBy, validCallOf } from "../../generator/rehearse/rehearse.ts";
import { readGitHub } from "./github-cases.ts";
import { mcpSnapshots } from "./mistakes/corpus-tools.ts";
import { openAiUnionTools } from "./mistakes/union-tools.ts";

/**
 * Issue 31's floor for every class. Each member's fields are read through its `$ref` chain
 * (a translated discriminator pins the tag beside the reference), and a folded `oneOf` inside an
 * `anyOf` finds its hints (explain/location.ts): docs/errors.md.
 */
const FLOORS: Readonly<Record<(typeof UNION_TAG_CLASSES)[number], number>> = {
  "union member with its tag left out": 0.9,
  "union member with a wrong tag": 0.9,
};

interface Scored {
  readonly entry: CorpusCase;
  readonly errors: readonly EnvelopeError[];
  readonly flagged: boolean;
  readonly repaired: boolean;
}

const scored: Scored[] = [];
/** Valid calls holding a union member that the guard refused. */
const refusedMembers: string[] = [];
let unions = 0;

async function run(description: ToolDescription, source: string): Promise<void> {
  const schema = description.inputSchema as Schema;
  const found = taggedUnions(schema).length;
  if (found === 0) return;
  const tool = await loadTool(description);
  const random = seeded(seedOf(`${source} ${description.name}`));
  const valid = validCallOf(tool, schema, random);
  if (valid === undefined) return;
  unions += found;
  const accepts = (call: unknown): boolean => tool.ajvErrors(call) === undefined;
  for (const { call } of unionMemberCalls(schema, valid, { random: seeded(seedOf(description.name)), accepts, limit: 4 }))
    if ((await tool.envelope(call)) !== undefined) refusedMembers.push(`${description.name}: ${JSON.stringify(call).slice(0, 300)}`);
  for (const entry of unionTagMistakes(description.name, source, schema, { valid, random, accepts })) {
    const errors = await tool.envelope(entry.args);
    if (errors === undefined) continue; // the member is still valid without its tag (an optional tag, an open member)
    scored.push({ entry, errors, flagged: carries(entry.expect, errors, entry.args), repaired: repairable(entry) && (await repairedBy(entry, tool, errors)) });
  }
}

const share = (rows: readonly Scored[], pick: (row: Scored) => boolean): number => rows.filter(pick).length / rows.length;

beforeAll(async () => {
  for (const snapshot of mcpSnapshots()) for (const tool of snapshot.tools) await run(tool, snapshot.source);
  for (const tool of await readGitHub()) await run(tool, "npm @octokit/openapi");
  const openai = await openAiUnionTools();
  for (const tool of openai.tools) await run(tool, openai.source);
  const lines = [`union-tag cases: ${scored.length} on ${unions} tagged unions`];
  for (const mistake of UNION_TAG_CLASSES) {
    const rows = scored.filter((row) => row.entry.mistake === mistake);
    lines.push(
      `${mistake}: ${rows.length} cases, flagged ${(100 * share(rows, (r) => r.flagged)).toFixed(1)}%, repaired ${(100 * share(rows, (r) => r.repaired)).toFixed(1)}%`,
    );
  }
  console.log(lines.join("\n"));
  writeFileSync(
    path.join(tmpdir(), "toolguard-union-tag-misses.txt"),
    scored
      .filter((row) => !row.flagged || !row.repaired)
      .map((row) => `${row.entry.id} ${JSON.stringify(row.entry.expect)} <- ${JSON.stringify(row.errors)}`)
      .join("\n"),
  );
});

describe("the union-tag classes over every tagged union of the corpus's tools", () => {
  it("finds the tagged unions and makes dozens of cases in each class", () => {
    expect(unions).toBeGreaterThan(50);
    for (const mistake of UNION_TAG_CLASSES) expect(scored.filter((row) => row.entry.mistake === mistake).length, mistake).toBeGreaterThan(30);
  });

  it("never refuses a valid call that holds a union member", () => {
    expect(refusedMembers).toEqual([]);
  });

  it("flags and repairs each class at its floor, and a degraded message falls under it", () => {
    for (const mistake of UNION_TAG_CLASSES) {
      const rows = scored.filter((row) => row.entry.mistake === mistake);
      expect(
        share(rows, (r) => r.flagged),
        `${mistake} flagged`,
      ).toBeGreaterThanOrEqual(FLOORS[mistake]);
      expect(
        share(rows, (r) => r.repaired),
        `${mistake} repaired`,
      ).toBeGreaterThanOrEqual(FLOORS[mistake]);
      // The messages with their instruction taken out, as a regression in the rule's wording would.
      const degraded = rows.filter((row) =>
        carries(
          row.entry.expect,
          row.errors.map((error) => ({ ...error, message: `violates ${error.rule}` })),
          row.entry.args,
        ),
      );
      expect(degraded.length / rows.length, `${mistake} degraded`).toBeLessThan(FLOORS[mistake]);
    }
  });

  it("tells a member whose fields are another's to send that member's one tag value", async () => {
    // OpenAI's realtime tools: the function tool requires nothing (its tag is optional), the MCP
    // tool requires its tag. A function tool sent with the MCP tag gets the function branch's
    // errors; its tag's one allowed value is what to send ("must be one of [...]" said no more).
    const tool = await loadTool({
      name: "pick",
      description: "",
      dialect: "2020-12",
      references: {},
      source: { file: "pick.json", pointer: "" },
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["tool"],
        properties: {
          tool: {
            anyOf: [
              { type: "object", properties: { type: { type: "string", enum: ["function"] }, name: { type: "string" } } },
              { type: "object", required: ["type", "server_label"], properties: { type: { type: "string", enum: ["mcp"] }, server_label: { type: "string" } } },
            ],
          },
        },
      },
    });
    expect(await tool.envelope({ tool: { type: "mcp", name: "f" } })).toEqual([
      { path: "/tool/type", rule: "enum", message: 'got string "mcp"; must be exactly "function"' },
    ]);
  });

  it("is seeded: the same schema gives the same cases", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        shape: {
          anyOf: [
            { type: "object", properties: { kind: { const: "circle" }, radius: { type: "number" } }, required: ["kind", "radius"] },
            { type: "object", properties: { kind: { const: "square" }, side: { type: "number" } }, required: ["kind", "side"] },
          ],
        },
      },
    };
    const make = () => unionTagMistakes("t", "s", schema, { valid: {}, random: seeded(3), accepts: () => true });
    expect(make()).toEqual(make());
    expect(make().map((entry) => entry.mistake)).toEqual([
      "union member with its tag left out",
      "union member with its tag left out",
      "union member with a wrong tag",
      "union member with a wrong tag",
    ]);
  });
});
