// Chain ids: one random prefix per process and a counter (ledger/chain-id.ts). Unique within a
// process, different across processes (and restarts), always shaped as a version-4 UUID.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { chainId } from "../../templates/runtime/ledger/chain-id.ts";
import { REPO } from "../helpers/temp-project.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function idsOfAnotherProcess(): string[] {
  const script = `import { chainId } from "./templates/runtime/ledger/chain-id.ts"; console.log(JSON.stringify([chainId(), chainId()]));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO, encoding: "utf8" })) as string[];
}

describe("chain ids", () => {
  it("are UUID-shaped and never repeat within a process", () => {
    const ids = Array.from({ length: 10_000 }, () => chainId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 3)) expect(id).toMatch(UUID);
  });

  it("differ between processes: each draws its own random prefix", () => {
    const [a, b] = [idsOfAnotherProcess(), idsOfAnotherProcess()];
    for (const id of [...a, ...b]) expect(id).toMatch(UUID);
    expect(a[0]!.slice(0, 24)).not.toBe(b[0]!.slice(0, 24));
    expect(new Set([...a, ...b, chainId()]).size).toBe(5);
  });
});
