// The demo's ledger section lists one line per chain: four turns, four records.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { REPO } from "../helpers/temp-project.ts";

it("npm run demo prints one ledger record per chain", () => {
  const out = execFileSync(process.execPath, [path.join(REPO, "examples/demo.ts")], { cwd: REPO, encoding: "utf8" });
  const section = out.slice(out.indexOf("=== the ledger"));
  const records = section
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "");
  expect(records).toHaveLength(4);
  expect(records.map((line) => line.split(": ").at(-1)!.split(",")[0])).toEqual(
    ["repaired 2 attempt(s)", "ok 2 attempt(s)", "repaired 3 attempt(s)", "rejected 2 attempt(s)"].map((text) => text.split(" ")[0]),
  );
});
