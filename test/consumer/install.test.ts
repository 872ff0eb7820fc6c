// The generated package is a real package: packed with npm, installed into a fresh consumer
// project, imported from plain Node ESM with no build step, and type-checked from TypeScript.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
let consumer: string;

function run(command: string, args: readonly string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(() => {
  consumer = mkdtempSync(path.join(tmpdir(), "toolguard-consumer-"));
  run("npm", ["pack", path.join(repo, "generated"), "--pack-destination", consumer, "--silent"], repo);
  const tarball = readdirSync(consumer).find((file) => file.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  run("npm", ["install", `./${tarball}`, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--silent"], consumer);
});

afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe("the generated package, installed", () => {
  it("imports from plain Node ESM with no build step and guards a call", () => {
    writeFileSync(
      path.join(consumer, "use.mjs"),
      `import { searchTickets, tools, toolDefinitions, MemorySink } from "generated-tools";
const ledger = new MemorySink();
const seen = [];
const guarded = searchTickets.implement((args) => { seen.push(args); return "found"; }, { ledger });
const ok = await guarded.call('{"query":"refund","page":{"size":"10"}}', { turn: "t1" });
const bad = await guarded.call('{"priority":"URGENT!"}', { turn: "t2" });
console.log(JSON.stringify({ ok: ok.status, result: ok.result, coerced: ok.coercions, bad: bad.status, seen, names: Object.keys(tools), defs: toolDefinitions.length }));
`,
    );
    const out = JSON.parse(run(process.execPath, ["use.mjs"], consumer));
    expect(out.ok).toBe("ok");
    expect(out.result).toBe("found");
    expect(out.coerced).toEqual([{ path: "/page/size", from: "10", to: 10, rule: "string->integer" }]);
    expect(out.bad).toBe("validation_failed");
    expect(out.seen).toEqual([{ query: "refund", page: { size: 10 } }]);
    expect(out.names).toEqual(["create_invoice", "schedule_meeting", "search_tickets", "update_org_chart"]);
    expect(out.defs).toBe(4);
  });

  it("type-checks from TypeScript with full types", () => {
    writeFileSync(
      path.join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2023", noEmit: true, skipLibCheck: false, types: [] },
        include: ["use.ts"],
      }),
    );
    writeFileSync(
      path.join(consumer, "use.ts"),
      `import { scheduleMeeting, type ScheduleMeetingArgs } from "generated-tools";
export const guarded = scheduleMeeting.implement((args) => {
  const minutes: 15 | 30 | 45 | 60 | 90 | 120 = args.duration_minutes;
  const first: string = args.attendees[0].email;
  return { minutes, first };
});
export const sample: ScheduleMeetingArgs = { title: "Sync", starts_at: "2026-01-31T09:30:00Z", duration_minutes: 30, attendees: [{ email: "a@example.com" }], send_invites: true };
// @ts-expect-error duration_minutes is an enum of numbers
export const wrong: ScheduleMeetingArgs = { ...sample, duration_minutes: 20 };
`,
    );
    const tsc = path.join(repo, "node_modules/.bin/tsc");
    expect(() => run(tsc, ["-p", "tsconfig.json"], consumer)).not.toThrow();
  });
});
