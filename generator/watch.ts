// `toolguard generate --watch`: generate, then regenerate whenever a schema file changes.
// Events are debounced (an editor's save is several writes), only schema files count (JSON and
// YAML, outside every set's output folder, outside dot folders such as the writer's staging
// folders and the cache), and only the sets whose folder saw a change are regenerated, through
// the cache, so one edited tool re-emits one tool. A broken save prints its errors and leaves
// the last good output in place; the next good save regenerates. Each run prints its time.
// A schema folder that goes away (removed, renamed, a checkout without it) is said so; its last
// output stays, and watching goes on until the folder is back, which regenerates it.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { GenerationCache } from "./speed/cache.ts";
import type { ResolvedConfig, ResolvedSet } from "./config.ts";
import { InputError, InputErrors } from "./errors.ts";
import { generateSet } from "./speed/generate-set.ts";
import { type PresenceWatcher, watchPresence } from "./watch-presence.ts";
import { type TreeWatcher, watchTree } from "./watch-tree.ts";
import { writePackage } from "./write-output.ts";

/** How long the folder must stay quiet before a regeneration starts. */
export const DEBOUNCE_MS = 100;

export interface WatchOptions {
  readonly config: ResolvedConfig;
  /** Works out anything the config leaves to run time (derived package versions) before each run. */
  readonly prepare: (config: ResolvedConfig) => Promise<ResolvedConfig>;
  readonly cache: GenerationCache | undefined;
  readonly cwd: string;
  readonly say: (text: string) => void;
  readonly warn: (text: string) => void;
  /** Resolves when watching should stop (default: SIGINT or SIGTERM). */
  readonly stop?: Promise<void>;
}

/** Whether a changed path (absolute) is a schema file of `set` and nothing toolguard writes. */
export function isSchemaChange(file: string, set: ResolvedSet, config: ResolvedConfig): boolean {
  if (!/\.(json|ya?ml)$/i.test(file)) return false;
  const relative = path.relative(set.schemas, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return false;
  if (relative.split(path.sep).some((segment) => segment.startsWith(".") || segment === "node_modules")) return false;
  return !config.sets.some((other) => file === other.out || file.startsWith(other.out + path.sep));
}

/** Generates, then regenerates on schema changes until stopped; resolves to the exit code. */
export async function watchAndGenerate(options: WatchOptions): Promise<number> {
  const { config, say, warn } = options;
  // Nothing to watch is an error now, not a process that waits forever.
  const missing = config.sets.find((set) => !isFolder(set.schemas));
  if (missing) {
    warn(`toolguard: cannot watch ${missing.schemas}: no such folder (create it, or point the config's \`schemas\` at an existing one)`);
    return 1;
  }
  const pending = new Set<ResolvedSet>(config.sets);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const run = async (): Promise<void> => {
    const sets = [...pending];
    pending.clear();
    const started = performance.now();
    try {
      const prepared = await options.prepare(config);
      for (const set of sets) {
        // Gone since the change was seen: said when it went, generated when it is back.
        if (!isFolder(set.schemas)) continue;
        const current = prepared.sets[config.sets.indexOf(set)] ?? set;
        const pkg = await generateSet(current, prepared, options.cache);
        const written = await writePackage(current.out, pkg.files);
        say(
          `${path.relative(options.cwd, current.out) || "."}: ${pkg.tools.length} tool${pkg.tools.length === 1 ? "" : "s"}${written ? "" : " (unchanged)"} in ${Math.round(performance.now() - started)} ms`,
        );
      }
    } catch (error) {
      if (error instanceof InputErrors || error instanceof InputError)
        warn(`toolguard: the schemas have errors; the last good output is kept.\n${error.format()}`);
      else warn(`toolguard: generation failed; the last good output is kept.\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };

  /** Runs now, or once more after the run in progress, until nothing is pending. */
  const schedule = (): void => {
    // Nothing pending (a set that went away since): no loop, whose synchronous end would run
    // before `running` is assigned and leave it set for good.
    if (running || pending.size === 0) return;
    running = (async () => {
      while (pending.size > 0) await run();
      running = undefined;
    })();
  };

  const changed = (set: ResolvedSet): void => {
    pending.add(set);
    clearTimeout(timer);
    timer = setTimeout(schedule, DEBOUNCE_MS);
  };
  const shown = (folder: string): string => path.relative(options.cwd, folder) || ".";
  const trees = new Map<ResolvedSet, TreeWatcher>();
  const watch = (set: ResolvedSet): void => {
    const onChange = (file: string): void => {
      if (isSchemaChange(file, set, config)) changed(set);
    };
    trees.set(
      set,
      watchTree(set.schemas, onChange, (error) => warn(`toolguard: cannot watch ${set.schemas}: ${error.message}`)),
    );
  };
  const presence: PresenceWatcher[] = [];
  for (const set of config.sets) {
    watch(set);
    const gone = (): void => {
      // Its folder watchers follow the old folder wherever it went: they stop with it.
      trees.get(set)?.close();
      trees.delete(set);
      pending.delete(set);
      warn(
        `toolguard: the schema folder ${shown(set.schemas)} is gone (removed or renamed); ${shown(set.out)} keeps the last good output. Waiting for ${shown(set.schemas)} to come back (Ctrl-C to stop).`,
      );
    };
    const back = (): void => {
      say(`${shown(set.schemas)} is back: regenerating`);
      watch(set);
      changed(set);
    };
    presence.push(watchPresence(set.schemas, gone, back));
  }
  schedule();
  say(`watching ${config.sets.map((set) => shown(set.schemas)).join(", ")} (Ctrl-C to stop)`);
  await (options.stop ?? untilSignal());
  clearTimeout(timer);
  for (const watcher of presence) watcher.close();
  for (const watcher of trees.values()) watcher.close();
  await running;
  return 0;
}

function isFolder(folder: string): boolean {
  return existsSync(folder) && statSync(folder).isDirectory();
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
}
