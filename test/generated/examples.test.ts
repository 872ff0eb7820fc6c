// The committed generated package, executed against data: each shipped tool's cases
// (test/fixtures/cases/<tool>.json, named after what they guard) go through the real guarded
// call, and the outcome's status, errors and coercions must be exactly as listed.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemorySink, tools } from "../../generated/index.js";

interface Case {
  readonly case: string;
  readonly args: unknown;
  readonly status: string;
  readonly errors?: readonly { path: string; rule: string }[];
  readonly coercions?: readonly unknown[];
}

const dir = path.join(import.meta.dirname, "../fixtures/cases");

for (const file of readdirSync(dir).sort()) {
  const toolName = file.replace(/\.json$/, "") as keyof typeof tools;
  const cases = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Case[];

  describe(toolName, () => {
    it.each(cases.map((c) => [c.case, c] as const))("%s", async (_name, c) => {
      const received: unknown[] = [];
      const definition = tools[toolName] as unknown as {
        implement: (impl: (args: unknown) => string, options: object) => { call: (raw: unknown, ctx: { turn: string }) => Promise<Record<string, unknown>> };
      };
      const guarded = definition.implement(
        (args) => {
          received.push(args);
          return "done";
        },
        { ledger: new MemorySink() },
      );
      const outcome = await guarded.call(JSON.stringify(c.args), { turn: c.case });
      expect(outcome.status).toBe(c.status);
      if (c.errors) {
        expect((outcome.errors as { path: string; rule: string }[]).map(({ path, rule }) => ({ path, rule }))).toEqual(c.errors);
      }
      if (c.status === "ok") {
        expect(outcome.coercions).toEqual(c.coercions ?? []);
        expect(received).toHaveLength(1);
      } else {
        expect(received).toEqual([]);
      }
    });
  });
}
