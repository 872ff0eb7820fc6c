// `toolguard generate --watch`: generate, then regenerate whenever a schema file changes.
// Events are debounced (an editor's save is several writes), only schema files count (JSON and
// YAML, outside every set's output folder, outside dot folders such as the writer's staging
// folders and the cache), and only the sets whose folder saw a change are regenerated, through
// the cache, so one edited tool re-emits one tool. A broken save prints its errors and leaves
// the last good output in place; the next good save regenerates. Each run prints its time.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { GenerationCache } from "./speed/cache.ts";
import type { ResolvedConfig, ResolvedSet } from "./config.ts";
import { InputError, InputErrors } from "./errors.ts";
import { generateSet } from "./speed/generate-set.ts";
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
  const missing = config.sets.find((set) => !existsSync(set.schemas) || !statSync(set.schemas).isDirectory());
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
    if (running) return;
    running = (async () => {
      while (pending.size > 0) await run();
      running = undefined;
    })();
  };

  const watchers: TreeWatcher[] = [];
  for (const set of config.sets) {
    const onChange = (file: string): void => {
      if (!isSchemaChange(file, set, config)) return;
      pending.add(set);
      clearTimeout(timer);
      timer = setTimeout(schedule, DEBOUNCE_MS);
    };
    watchers.push(watchTree(set.schemas, onChange, (error) => warn(`toolguard: cannot watch ${set.schemas}: ${error.message}`)));
  }
  schedule();
  say(`watching ${config.sets.map((set) => path.relative(options.cwd, set.schemas) || ".").join(", ")} (Ctrl-C to stop)`);
  await (options.stop ?? untilSignal());
  clearTimeout(timer);
  for (const watcher of watchers) watcher.close();
  await running;
  return 0;
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
