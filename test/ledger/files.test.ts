// The ledger's files on disk (templates/runtime/ledger/ledger-files.ts, ledger-writers.ts):
// who owns the configured path, the files of the other writers, a dead writer's files taken
// over or retained, and the readers that merge them. Several processes are played by files
// named for a process that has exited (its pid checked by the writer, as a real one would be).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ledgerFiles } from "../../templates/runtime/ledger/ledger-files.ts";
import { JsonlFileSink } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { newWriterId } from "../../templates/runtime/ledger/ledger-writers.ts";
import { readLedger } from "../../templates/runtime/ledger/read.ts";
import { okEntry } from "../helpers/ledger-entry.ts";

const line = (turn: string): string => `${JSON.stringify(okEntry(turn, "x".repeat(100)))}\n`;

async function folder(): Promise<string> {
  return mkdtemp(join(tmpdir(), "toolguard-files-"));
}

/** A writer id of a process of this machine that has exited. */
function deadWriter(): string {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  const host = newWriterId().split("-")[2];
  return `${pid}-${Date.now() - 60_000}-${host}`;
}

describe("the ledger's files (issue 26)", () => {
  it("a single writer owns the configured path: it writes it, and gives it up on close", async () => {
    const dir = await folder();
    const path = join(dir, "ledger.jsonl");
    const sink = new JsonlFileSink({ path, sync: false });
    sink.append(okEntry("a", "x".repeat(100)));
    await sink.flush();
    expect(sink.liveFile).toBe(path);
    expect((await readdir(dir)).sort()).toEqual(["ledger.jsonl", "ledger.jsonl.owner-1"]);
    expect(await readFile(path, "utf8")).toBe(line("a"));
    await sink.close();
    expect(await readdir(dir)).toEqual(["ledger.jsonl"]);
  });

  it("a second writer of the same ledger writes a file of its own; the readers merge both", async () => {
    const dir = await folder();
    const path = join(dir, "ledger.jsonl");
    const first = new JsonlFileSink({ path, sync: false });
    const second = new JsonlFileSink({ path, sync: false });
    first.append(okEntry("first", "x".repeat(100)));
    await first.flush();
    second.appendNow(okEntry("second", "x".repeat(100)));
    expect(second.liveFile).not.toBe(path);
    expect(second.liveFile).toMatch(/[/\\]ledger\.\d+-\d+-[0-9a-f]{6}\.jsonl$/);
    expect(await readFile(second.liveFile, "utf8")).toBe(line("second"));
    expect(await readFile(path, "utf8")).toBe(line("first"));
    await Promise.all([first.close(), second.close()]);
    expect((await readLedger(path)).map((e) => e.turn).sort()).toEqual(["first", "second"]);
  });

  it("takes over the path of an owner that died, after its last line (torn or not), and keeps its lines", async () => {
    const dir = await folder();
    const path = join(dir, "ledger.jsonl");
    await writeFile(path, `${line("dead-0")}{"v":1,"chain":"torn`);
    await writeFile(`${path}.owner-3`, deadWriter());
    const sink = new JsonlFileSink({ path, sync: false });
    sink.append(okEntry("new", "x".repeat(100)));
    await sink.flush();
    expect(sink.liveFile).toBe(path);
    expect(await readdir(dir)).toContain("ledger.jsonl.owner-4");
    expect(existsSync(`${path}.owner-3`)).toBe(false);
    await sink.close();
    expect(await readFile(path, "utf8")).toBe(`${line("dead-0")}{"v":1,"chain":"torn\n${line("new")}`);
  });

  it("never takes the path of an owner that is alive (another process's pid)", async () => {
    const dir = await folder();
    const path = join(dir, "ledger.jsonl");
    const host = newWriterId().split("-")[2];
    await writeFile(`${path}.owner-1`, `${process.ppid}-${Date.now()}-${host}`);
    const sink = new JsonlFileSink({ path, sync: false });
    sink.append(okEntry("mine", "x".repeat(100)));
    await sink.flush();
    expect(sink.liveFile).not.toBe(path);
    await sink.close();
    expect(existsSync(path)).toBe(false);
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["mine"]);
  });

  it("retention counts a dead writer's live file as closed, and finishes a removal a dead writer began", async () => {
    const dir = await folder();
    const path = join(dir, "ledger.jsonl");
    const dead = deadWriter();
    const old = Date.now() / 1000 - 3600;
    await writeFile(join(dir, `ledger.${dead}.jsonl`), line("d-0") + line("d-1"));
    await writeFile(join(dir, `ledger.${dead}.1.jsonl.removing-${dead}`), line("r-0") + line("r-1") + line("r-2"));
    await utimes(join(dir, `ledger.${dead}.jsonl`), old, old);
    // Rotated every line, nothing kept: every closed file is removed at the first rotation.
    const sink = new JsonlFileSink({ path, sync: false, maxFileBytes: 100, maxFiles: 0 });
    for (const turn of ["a", "b", "c"]) {
      sink.append(okEntry(turn, "x".repeat(100)));
      await sink.flush();
    }
    const stats = await sink.close();
    expect(stats.rotations).toBe(2);
    // 2 of the dead writer's live file, 3 half removed, and the 2 closed files of this writer's own rotations.
    expect(stats.rotatedAway).toBe(2 + 3 + 2);
    expect(await readdir(dir)).toEqual(["ledger.jsonl"]);
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(["c"]);
  });

  it("never removes another machine's writer's live file (its pid means nothing here)", async () => {
    const dir = await folder();
    const path = join(dir, "ledger.jsonl");
    // A pid that is not running here, of a writer on another host: alive for all this machine can tell.
    const [pid, start, host] = deadWriter().split("-");
    const elsewhere = `${pid}-${start}-${host === "000000" ? "ffffff" : "000000"}`;
    await writeFile(join(dir, `ledger.${elsewhere}.jsonl`), line("elsewhere"));
    const sink = new JsonlFileSink({ path, sync: false, maxFileBytes: 100, maxFiles: 0 });
    for (const turn of ["a", "b"]) {
      sink.append(okEntry(turn, "x".repeat(100)));
      await sink.flush();
    }
    await expect(sink.close()).resolves.toMatchObject({ rotations: 1, rotatedAway: 1 });
    expect((await readLedger(path)).map((e) => e.turn).sort()).toEqual(["b", "elsewhere"]);
  });

  it("reads every file by the time of its newest line, each writer's in the order it wrote them, owner and lock files left out", async () => {
    const dir = await folder();
    const path = join(dir, "ledger.jsonl");
    const writer = deadWriter();
    const at = (seconds: number): number => Date.now() / 1000 - seconds;
    const files: [string, string, number][] = [
      ["ledger.jsonl.2", "old-2", 500],
      ["ledger.jsonl.1", "old-1", 400],
      [`ledger.${writer}.1.jsonl`, "w-1", 300],
      [`ledger.${writer}.2.jsonl`, "w-2", 200],
      [`ledger.${writer}.jsonl`, "w-live", 100],
      ["ledger.jsonl", "path", 50],
    ];
    for (const [name, turn, age] of files) {
      await writeFile(join(dir, name), line(turn));
      await utimes(join(dir, name), at(age), at(age));
    }
    await writeFile(join(dir, "ledger.jsonl.owner-1"), writer);
    await writeFile(join(dir, "ledger.jsonl.lock"), "");
    expect(ledgerFiles(path).map((file) => file.file)).toEqual(files.map(([name]) => join(dir, name)));
    expect((await readLedger(path)).map((e) => e.turn)).toEqual(files.map(([, turn]) => turn));
  });
});
