// The runtime and tool template that `npm run build` precompiles: keyed by the sources they are
// made from, so that a file made from other sources is never used, wherever toolguard is
// installed. (test/consumer/ shows the installed package using it, byte for byte.)
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runtimeFiles } from "../../generator/emit/runtime.ts";
import { toolTemplate } from "../../generator/emit/tool-template.ts";
import { TEMPLATES_DIR } from "../../generator/paths.ts";
import { makePrecompiled, readPrecompiled, sourcesKey } from "../../generator/speed/precompiled.ts";

const GENERATOR_DIR = path.resolve(import.meta.dirname, "../../generator");
const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of toolguard's templates and generator under `where` inside a fresh folder. */
function copySources(where: string): { templates: string; generator: string } {
  const root = mkdtempSync(path.join(tmpdir(), "toolguard-precompiled-"));
  temporary.push(root);
  const dirs = { templates: path.join(root, where, "templates"), generator: path.join(root, where, "generator") };
  cpSync(TEMPLATES_DIR, dirs.templates, { recursive: true });
  cpSync(GENERATOR_DIR, dirs.generator, { recursive: true });
  return dirs;
}

describe("precompiled runtime and tool template", () => {
  it("are keyed by their sources, not by where toolguard is installed", async () => {
    const key = await sourcesKey({ templates: TEMPLATES_DIR, generator: GENERATOR_DIR });
    expect(await sourcesKey(copySources("checkout"))).toBe(key);
    expect(await sourcesKey(copySources("node_modules/toolguard"))).toBe(key);
  });

  it("get another key when a template or the generator changes", async () => {
    const key = await sourcesKey({ templates: TEMPLATES_DIR, generator: GENERATOR_DIR });
    const template = copySources("a");
    appendFileSync(path.join(template.templates, "runtime/index.ts"), "\n// edited\n");
    expect(await sourcesKey(template)).not.toBe(key);
    const generator = copySources("b");
    appendFileSync(path.join(generator.generator, "emit/runtime.ts"), "\n// edited\n");
    expect(await sourcesKey(generator)).not.toBe(key);
    const added = copySources("c");
    writeFileSync(path.join(added.templates, "runtime/extra.ts"), "export const extra = 1;\n");
    expect(await sourcesKey(added)).not.toBe(key);
  });

  it("are what compiling the sources gives, through JSON", async () => {
    const made = JSON.parse(JSON.stringify(await makePrecompiled())) as Awaited<ReturnType<typeof makePrecompiled>>;
    expect(made.key).toBe(await sourcesKey());
    expect(made.runtime).toEqual(runtimeFiles());
    expect(made.toolTemplate).toEqual(toolTemplate());
  });

  it("are read only under the key of the current sources", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolguard-precompiled-"));
    temporary.push(dir);
    const file = path.join(dir, "precompiled.json");
    const made = await makePrecompiled();
    writeFileSync(file, JSON.stringify(made));
    expect(await readPrecompiled(file, made.key)).toEqual(made);
    expect(await readPrecompiled(file, "0".repeat(64))).toBeUndefined();
    expect(await readPrecompiled(path.join(dir, "missing.json"), made.key)).toBeUndefined();
    writeFileSync(file, JSON.stringify(made).slice(0, 100));
    expect(await readPrecompiled(file, made.key)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ key: made.key }));
    expect(await readPrecompiled(file, made.key)).toBeUndefined();
  });
});
