// A throwaway project folder for generator tests: write schema files, run the CLI in-process
// against it, and read back what it printed and wrote.
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, vi } from "vitest";
import { main } from "../../generator/cli.ts";

export const REPO: string = path.resolve(import.meta.dirname, "../..");

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export class TempProject {
  readonly dir: string;

  constructor(files: Readonly<Record<string, unknown>> = {}) {
    this.dir = mkdtempSync(path.join(tmpdir(), "toolguard-test-"));
    // Generated packages import their runtime dependency; let them find the repository's.
    symlinkSync(path.join(REPO, "node_modules"), path.join(this.dir, "node_modules"));
    for (const [file, content] of Object.entries(files)) this.write(file, content);
  }

  /** Writes a file; objects are written as JSON. */
  write(file: string, content: unknown): void {
    const full = path.join(this.dir, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }

  read(file: string): string {
    return readFileSync(path.join(this.dir, file), "utf8");
  }

  /** Every file under `folder`, relative, sorted, with its content. */
  snapshot(folder: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (dir: string, prefix: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const full = path.join(dir, name);
        const rel = prefix ? `${prefix}/${name}` : name;
        if (statSync(full).isDirectory()) walk(full, rel);
        else out[rel] = readFileSync(full, "utf8");
      }
    };
    walk(path.join(this.dir, folder), "");
    return out;
  }

  async run(...argv: string[]): Promise<RunResult> {
    let stdout = "";
    let stderr = "";
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    try {
      const code = await main(argv, this.dir);
      return { code, stdout, stderr };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A minimal valid MCP-shaped tool. */
export function mcpTool(
  name: string,
  inputSchema: Record<string, unknown> = { type: "object", properties: { q: { type: "string" } } },
): Record<string, unknown> {
  return { name, description: `The ${name} tool.`, inputSchema };
}

/**
 * A maker of throwaway projects for one test file: each project it makes is removed after the
 * test that made it (register it at the file's top level, where vitest's `afterEach` applies).
 */
export function projectsRemovedAfterEach(): (files?: Readonly<Record<string, unknown>>) => TempProject {
  const made: TempProject[] = [];
  afterEach(() => {
    for (const project of made.splice(0)) project.remove();
  });
  return (files = {}) => {
    const project = new TempProject(files);
    made.push(project);
    return project;
  };
}
