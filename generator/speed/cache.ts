// The content-hash cache of generation, under `.toolguard/cache/`: what was emitted for a tool,
// keyed by a hash of the tool's description and of toolguard's own emitting code, and what a
// whole schema set produced, keyed by a hash of every file under its schema folder. A re-run
// with nothing changed reads no schema and loads no emitter; with one tool changed, it emits
// that tool only. Entries are only ever added under new keys, so a stale entry is never read:
// changing toolguard or a schema changes the key. Delete the folder to reclaim the space.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { threadId } from "node:worker_threads";
import type { ResolvedSet } from "../config.ts";
import type { PackageTool } from "../emit/package-files.ts";
import type { EmittedFile } from "../emit/runtime.ts";
import type { SkippedTool, ToolDescription } from "../ir.ts";
import { listFiles, sourcesHash } from "./sources-hash.ts";

/** A whole set's result, as `generateSet` returns it. */
export interface CachedSet {
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  readonly notes?: readonly string[];
  readonly files: readonly EmittedFile[];
}

/**
 * A whole set's result as stored: its files by the names of the entries that already hold them
 * (each tool's, the runtime's, the index's), not a second copy of every file (~20 MB on
 * GitHub's spec). Those entries are content-addressed like the set's, so they cannot be stale;
 * if one has gone, the set is a miss.
 */
interface StoredSet {
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  readonly notes?: readonly string[];
  readonly entries: readonly string[];
}

export class GenerationCache {
  readonly #dir: string;
  readonly #toolKeys = new WeakMap<ToolDescription, Promise<string>>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** The files emitted for `tool` by this version of toolguard, if any run emitted them. */
  async tool(tool: ToolDescription): Promise<readonly EmittedFile[] | undefined> {
    return this.#read(`${await this.toolEntry(tool)}.json`);
  }

  async storeTool(tool: ToolDescription, files: readonly EmittedFile[]): Promise<void> {
    await this.#write(`${await this.toolEntry(tool)}.json`, files);
  }

  /** The name of `tool`'s entry, as a set entry refers to it. */
  async toolEntry(tool: ToolDescription): Promise<string> {
    return `tools/${await this.toolKey(tool)}`;
  }

  /** Hashed once per description: a run looks the key up, then stores under it. */
  toolKey(tool: ToolDescription): Promise<string> {
    let key = this.#toolKeys.get(tool);
    if (!key) this.#toolKeys.set(tool, (key = this.emitterHash().then((emitter) => hash(`${emitter}\0${JSON.stringify(tool)}`))));
    return key;
  }

  /**
   * The key of the package files (index, catalog, manifest). They read the set and, of each
   * tool, what the catalog lists (emit/catalog.ts): its name, references, description, HTTP
   * binding and input schema, so those are hashed. A changed schema rewrites the catalog (string
   * building, milliseconds); the index is laid out without prettier for ordinary names.
   */
  async packageKey(set: ResolvedSet, tools: readonly PackageTool[]): Promise<string> {
    const index = tools.map((tool) => [tool.name, tool.references, tool.description, tool.http, tool.inputSchema]);
    return hash(`${await this.emitterHash()}\0${JSON.stringify(set)}\0${JSON.stringify(index)}`);
  }

  async files(key: string): Promise<readonly EmittedFile[] | undefined> {
    return this.#read(`${this.filesEntry(key)}.json`);
  }

  /** The name of the entry `storeFiles(key)` writes, as a set entry refers to it. */
  filesEntry(key: string): string {
    return `package/${key}`;
  }

  async storeFiles(key: string, files: readonly EmittedFile[]): Promise<void> {
    await this.#write(`package/${key}.json`, files);
  }

  /** Emitter data derived from toolguard's own sources alone (the compiled tool template). */
  async derived<T>(name: string): Promise<T | undefined> {
    return this.#read(`package/${name}-${await this.emitterHash()}.json`);
  }

  async storeDerived(name: string, value: unknown): Promise<void> {
    await this.#write(`package/${name}-${await this.emitterHash()}.json`, value);
  }

  /**
   * The key of a set's whole result: toolguard's code, the options, and every file under the
   * schema folder (`$ref`s are confined to it). `undefined` when the result may depend on
   * anything else, i.e. when `$ref`s may reach the network.
   */
  async setKey(set: ResolvedSet, options: { readonly allowNetwork: boolean; readonly strict: boolean }): Promise<string | undefined> {
    if (options.allowNetwork) return undefined;
    const digest = createHash("sha256")
      .update(await this.emitterHash())
      .update(JSON.stringify({ set, strict: options.strict }));
    for (const file of await listFiles(set.schemas)) {
      digest.update(`\0${path.relative(set.schemas, file)}\0`).update(await readFile(file));
    }
    return digest.digest("hex");
  }

  /** The set's result, its files read from the entries it names; a miss if any is missing. */
  async set(key: string): Promise<CachedSet | undefined> {
    const stored = await this.#read<StoredSet>(`sets/${key}.json`);
    if (!stored || !Array.isArray(stored.entries)) return undefined;
    const files: EmittedFile[] = [];
    for (const entry of stored.entries) {
      const part = await this.#read<readonly EmittedFile[]>(`${entry}.json`);
      if (!Array.isArray(part)) return undefined;
      files.push(...part);
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { tools: stored.tools, skipped: stored.skipped, notes: stored.notes ?? [], files };
  }

  /** Stores a set's result as the names of the entries holding its files, all already stored. */
  async storeSet(key: string, result: Omit<CachedSet, "files">, entries: readonly string[]): Promise<void> {
    await this.#write(`sets/${key}.json`, { tools: result.tools, skipped: result.skipped, notes: result.notes ?? [], entries } satisfies StoredSet);
  }

  /** What generation reads besides the schemas: toolguard's own sources (sources-hash.ts). */
  emitterHash(): Promise<string> {
    return sourcesHash();
  }

  // Synchronous: a re-run looks up a thousand entries, and promise-based reads of small files
  // cost several times more than the reads themselves.
  async #read<T>(name: string): Promise<T | undefined> {
    try {
      return JSON.parse(readFileSync(path.join(this.#dir, name), "utf8")) as T;
    } catch {
      // Missing, or written by a run that crashed midway (writes are atomic, but be lenient).
      return undefined;
    }
  }

  /**
   * The file holding an entry (`toolEntry`, `filesEntry`), for a worker thread to store what it
   * emitted with `writeEntry` itself, so that the text need not cross to this thread.
   */
  entryFile(entry: string): string {
    return path.join(this.#dir, `${entry}.json`);
  }

  async #write(name: string, value: unknown): Promise<void> {
    await writeEntry(path.join(this.#dir, name), value);
  }
}

/**
 * Stores `value` at a cache entry's file, from any thread: written to a temporary name, then
 * renamed, so that concurrent runs and threads never see half an entry.
 */
export async function writeEntry(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}-${threadId}.tmp`;
  await writeFile(temporary, JSON.stringify(value));
  await rename(temporary, file);
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
