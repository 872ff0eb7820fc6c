// Writing a package swaps a whole new folder in; files that did not change are hard-linked into
// it rather than written again, while changed, missing and hand-edited files are written anew.
import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writePackage } from "../../generator/write-output.ts";
import { TempProject } from "../helpers/temp-project.ts";

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
});
