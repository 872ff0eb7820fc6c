// Writing a package swaps a whole new folder in; files that did not change are hard-linked into
// it rather than written again, while changed, missing and hand-edited files are written anew. A
// run killed while staging leaves its `-new-` folder, which the next write beside it removes.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { writePackage } from "../../generator/write-output.ts";
import { REPO, TempProject } from "../helpers/temp-project.ts";

let project: TempProject | undefined;
afterEach(() => project?.remove());

describe("writePackage", () => {
  it("links unchanged files, writes changed and hand-edited ones, drops extra ones", async () => {
    project = new TempProject();
    const out = path.join(project.dir, "generated");
    const first = [
      { path: "index.js", content: "export {};\n" },
      { path: "tools/a.js", content: "a1\n" },
      { path: "tools/b.js", content: "b1\n" },
      { path: "tools/c.js", content: "c1\n" },
      { path: "tools/gone.js", content: "gone\n" },
    ];
    expect(await writePackage(out, first)).toBe(true);
    const inode = (file: string): number => statSync(path.join(out, file)).ino;
    const before = { a: inode("tools/a.js"), b: inode("tools/b.js"), c: inode("tools/c.js"), index: inode("index.js") };
    writeFileSync(path.join(out, "tools/c.js"), "edited by hand\n");

    const second = [
      { path: "index.js", content: "export {};\n" },
      { path: "tools/a.js", content: "a1\n" },
      { path: "tools/b.js", content: "b2\n" },
      { path: "tools/c.js", content: "c1\n" },
      { path: "tools/new.js", content: "new\n" },
    ];
    expect(await writePackage(out, second)).toBe(true);
    expect(project.snapshot("generated")).toEqual(Object.fromEntries(second.map((file) => [file.path, file.content])));
    // Unchanged: the very same file, linked into the new folder (and no longer linked elsewhere).
    expect(inode("tools/a.js")).toBe(before.a);
    expect(inode("index.js")).toBe(before.index);
    expect(statSync(path.join(out, "tools/a.js")).nlink).toBe(1);
    // Changed or edited by hand: a new file, so the old folder's bytes never leak into the new one.
    expect(inode("tools/b.js")).not.toBe(before.b);
    expect(inode("tools/c.js")).not.toBe(before.c);
    expect(await writePackage(out, second)).toBe(false);
  });

  it("after a write killed mid-way, the next one removes its staging folder, never an -old- one", async () => {
    project = new TempProject();
    const out = path.join(project.dir, "generated");
    // A write that stops for good while staging: its last file's text never comes.
    const script = `
      const { writePackage } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, "generator/write-output.ts")).href)});
      const stuck = { path: "tools/z.js", get content() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return ""; } };
      await writePackage(${JSON.stringify(out)}, [{ path: "index.js", content: "export {};\\n" }, stuck]);`;
    const killed = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
    const left = path.join(project.dir, `.generated.toolguard-new-${killed.pid}`);
    const exited = new Promise((resolve) => killed.on("exit", resolve));
    while (!existsSync(path.join(left, "index.js"))) await new Promise((resolve) => setTimeout(resolve, 20));
    killed.kill("SIGKILL");
    await exited;
    expect(existsSync(left)).toBe(true);

    const dead = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
    const kept = [
      `.generated.toolguard-old-${dead}`, // may be the only copy of the output
      `.generated.toolguard-new-${process.ppid}`, // a live process's
      `.other.toolguard-new-${dead}`, // another output's
    ].map((name) => path.join(project?.dir as string, name));
    for (const folder of kept) mkdirSync(folder);
    expect(await writePackage(out, [{ path: "index.js", content: "export {};\n" }])).toBe(true);
    expect(existsSync(left)).toBe(false);
    expect(kept.filter((folder) => existsSync(folder))).toEqual(kept);
    expect(project.snapshot("generated")).toEqual({ "index.js": "export {};\n" });
  });
});
