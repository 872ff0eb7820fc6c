// A large set's files are spilled to `.<out>.toolguard-spill-<pid>` beside the output as each
// tool arrives (generator/speed/spill.ts), then linked into the package when it is written. The
// spill holds each text once, keeps a clash of two texts at one path in view of the defect check,
// goes away with its process, and a killed process's spill is removed by the next run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withSharedModulesOnce } from "../../generator/emit/shared-modules.ts";
import { removeStaleSpills, Spill, SpilledFile, spillFolder } from "../../generator/speed/spill.ts";
import { writePackage } from "../../generator/write-output.ts";
import { mcpTool, REPO, projectsRemovedAfterEach } from "../helpers/temp-project.ts";

const project = projectsRemovedAfterEach();

/** A pid no process has: one that has just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

/** Enough tools for the worker threads, and so for the spill. */
function manyTools(count: number): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `tool_${String(i).padStart(2, "0")}`;
    files[`schemas/${name}.json`] = mcpTool(name, { type: "object", properties: { q: { type: "string", maxLength: i + 1 } }, required: ["q"] });
  }
  return files;
}

const spillsIn = (dir: string): string[] => readdirSync(dir).filter((name) => name.includes(".toolguard-spill-"));

describe("the spill folder", () => {
  it("writes each file once, hands back copies that read from disk, and links them into the package", async () => {
    const temp = project();
    const out = path.join(temp.dir, "generated");
    const spill = (await Spill.open(out)) as Spill;
    expect(spill.folder).toBe(spillFolder(out));
    const shared = { path: "tools/shared/cycle-1.js", content: "shared\n" };
    const first = await spill.put([{ path: "tools/a.js", content: "a\n" }, shared]);
    const second = await spill.put([{ path: "tools/b.js", content: "b\n" }, shared]);
    for (const file of [...first, ...second]) expect(file).toBeInstanceOf(SpilledFile);
    expect(second[1]).toBe(first[1]); // the same module, one copy on disk
    expect(first.map((file) => file.content)).toEqual(["a\n", "shared\n"]);
    const files = withSharedModulesOnce([...first, ...second]);
    expect(files.map((file) => file.path)).toEqual(["tools/a.js", "tools/shared/cycle-1.js", "tools/b.js"]);
    expect(await writePackage(out, files)).toBe(true);
    expect(temp.snapshot("generated")).toEqual({ "tools/a.js": "a\n", "tools/b.js": "b\n", "tools/shared/cycle-1.js": "shared\n" });
    // Linked, not written again: the package's file is the spilled one.
    expect(statSync(path.join(out, "tools/a.js")).ino).toBe(statSync(path.join(spill.folder, "tools/a.js")).ino);
    spill.remove();
    expect(spillsIn(temp.dir)).toEqual([]);
    expect(temp.snapshot("generated")["tools/b.js"]).toBe("b\n");
  });

  it("keeps a second text at a path already spilled in memory, so that the clash is still caught", async () => {
    const temp = project();
    const spill = (await Spill.open(path.join(temp.dir, "generated"))) as Spill;
    const [first] = await spill.put([{ path: "tools/shared/m.js", content: "one\n" }]);
    const [second] = await spill.put([{ path: "tools/shared/m.js", content: "two\n" }]);
    expect(second).not.toBeInstanceOf(SpilledFile);
    expect(first?.content).toBe("one\n"); // not overwritten by the second
    expect(() => withSharedModulesOnce([first, second] as SpilledFile[])).toThrow(/two tools emitted tools\/shared\/m.js with different contents/);
    spill.remove();
  });

  it("keeps a file it cannot write in memory", async () => {
    const temp = project();
    const spill = (await Spill.open(path.join(temp.dir, "generated"))) as Spill;
    writeFileSync(path.join(spill.folder, "tools"), "a file where the folder would go\n");
    const [file] = await spill.put([{ path: "tools/a.js", content: "a\n" }]);
    expect(file).not.toBeInstanceOf(SpilledFile);
    expect(file?.content).toBe("a\n");
    spill.remove();
  });

  it("is not opened where the output's parent folder does not exist: nothing is created", async () => {
    const temp = project();
    expect(await Spill.open(path.join(temp.dir, "missing", "generated"))).toBeUndefined();
    expect(existsSync(path.join(temp.dir, "missing"))).toBe(false);
  });

  it("removes the spill folders of processes that are gone, and only those", async () => {
    const temp = project();
    const out = path.join(temp.dir, "generated");
    const dead = spillFolder(out, deadPid());
    const live = spillFolder(out, process.ppid);
    const other = path.join(temp.dir, ".generated.toolguard-spill-notapid");
    for (const folder of [dead, live, other]) {
      mkdirSync(path.join(folder, "tools"), { recursive: true });
      writeFileSync(path.join(folder, "tools", "a.js"), "a\n");
    }
    expect(await removeStaleSpills(temp.dir)).toEqual([dead]);
    expect([dead, live, other].map((folder) => existsSync(folder))).toEqual([false, true, true]);
  });
});

describe("generating a large set", () => {
  it("removes its spill folder when the process exits", async () => {
    const temp = project(manyTools(60));
    expect((await temp.run("generate", "--quiet", "--no-cache")).code).toBe(0);
    expect(Object.keys(temp.snapshot("generated")).filter((file) => file.startsWith("tools/"))).toHaveLength(120);
    // The in-process run's folder goes at exit; it is the only one, and it holds what was written.
    expect(spillsIn(temp.dir)).toEqual([path.basename(spillFolder(path.join(temp.dir, "generated")))]);
    const child = spawnSync(process.execPath, [path.join(REPO, "generator/main.ts"), "generate", "--quiet", "--no-cache"], { cwd: temp.dir, encoding: "utf8" });
    expect(child.status, child.stderr).toBe(0);
    // A whole process: its folder is gone with it (and the run removed none that was live).
    expect(spillsIn(temp.dir)).toEqual([path.basename(spillFolder(path.join(temp.dir, "generated")))]);
  });

  it("after a run killed mid-way, the next run removes the spill folder it left", async () => {
    const temp = project(manyTools(60));
    const killed = spawn(process.execPath, [path.join(REPO, "generator/main.ts"), "generate", "--quiet", "--no-cache"], { cwd: temp.dir, stdio: "ignore" });
    const left = spillFolder(path.join(temp.dir, "generated"), killed.pid);
    const exited = new Promise((resolve) => killed.on("exit", resolve));
    // Killed once the first tools are on disk in its spill folder.
    while (!existsSync(path.join(left, "tools"))) await new Promise((resolve) => setTimeout(resolve, 20));
    killed.kill("SIGKILL");
    await exited;
    expect(existsSync(left)).toBe(true);
    expect(existsSync(path.join(temp.dir, "generated"))).toBe(false); // nothing half written
    expect((await temp.run("generate", "--quiet", "--no-cache")).code).toBe(0);
    expect(existsSync(left)).toBe(false);
    expect(Object.keys(temp.snapshot("generated")).filter((file) => file.startsWith("tools/"))).toHaveLength(120);
  });
});
