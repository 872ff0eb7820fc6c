// What generation makes from toolguard's own sources alone, never from a user's schemas: the
// runtime every package carries (templates/runtime/*.ts transpiled) and the compiled tool
// template. `npm run build` makes both once (speed/build-precompiled.ts) into dist/precompiled.json,
// so that toolguard as users install it never loads TypeScript to make them (~1 s of CPU per
// run on an empty cache). The file is keyed by a hash of the sources it was made from, and a
// file whose key does not match the sources beside it is ignored: they are compiled as before.
// A checkout runs its TypeScript sources; `prepare` (run by `npm ci`) writes their precompiled
// file at the checkout's root, which holds until a template or a generator file changes (then
// `npm run prepare` makes it again; until then each run compiles on the fly, ~5 s of CPU).
import { readFile, rename, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { EmittedFile } from "../emit/runtime.ts";
import type { CompiledToolTemplate } from "../emit/tool-template.ts";
import { EXTRA_NAMES } from "../extras.ts";
import { type SourceDirs, sourcesHash } from "./sources-hash.ts";

export type { SourceDirs };

export interface Precompiled {
  /** `sourcesKey()` of the sources this was made from. */
  readonly key: string;
  readonly runtime: readonly EmittedFile[];
  /** Every extra (templates/extras/*), compiled; a set takes the ones it lists. */
  readonly extras: readonly EmittedFile[];
  readonly toolTemplate: CompiledToolTemplate;
}

/** Beside the generator's folder: dist/precompiled.json for the built form, precompiled.json at a checkout's root. */
export const PRECOMPILED_FILE: string = fileURLToPath(new URL("../../precompiled.json", import.meta.url));

/** The key of the precompiled files: the one hash of the sources they are made from (sources-hash.ts). */
export function sourcesKey(dirs?: SourceDirs): Promise<string> {
  return sourcesHash(dirs);
}

let shipped: Promise<Precompiled | undefined> | undefined;

/** The precompiled files shipped beside this code, if they were made from the sources beside it. */
export function shippedPrecompiled(): Promise<Precompiled | undefined> {
  shipped ??= sourcesKey().then((key) => readPrecompiled(PRECOMPILED_FILE, key));
  return shipped;
}

/** The precompiled files in `file` if its key is `key`; `undefined` if it is missing, unreadable or stale. */
export async function readPrecompiled(file: string, key: string): Promise<Precompiled | undefined> {
  let stored: Partial<Precompiled>;
  try {
    stored = JSON.parse(await readFile(file, "utf8")) as Partial<Precompiled>;
  } catch {
    return undefined;
  }
  if (
    stored.key !== key ||
    !Array.isArray(stored.runtime) ||
    !Array.isArray(stored.extras) ||
    typeof stored.toolTemplate !== "object" ||
    stored.toolTemplate === null
  )
    return undefined;
  return stored as Precompiled;
}

/** Compiles the runtime and the tool template from the sources beside this code (loads TypeScript). */
export async function makePrecompiled(): Promise<Precompiled> {
  const [{ runtimeFiles, transpileTemplates }, { toolTemplate }, key] = await Promise.all([
    import("../emit/runtime.ts"),
    import("../emit/tool-template.ts"),
    sourcesKey(),
  ]);
  const extras = EXTRA_NAMES.flatMap((name) => transpileTemplates(`extras/${name}`));
  return { key, runtime: runtimeFiles(), extras, toolTemplate: toolTemplate() };
}

/**
 * Writes under a temporary name, then renames: a checkout's `prepare` may run (`npm pack`, `npm ci`)
 * while a test reads the file, which must see the old file or the new one, never half of one.
 */
export async function writePrecompiled(file: string = PRECOMPILED_FILE): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(await makePrecompiled()));
  await rename(temporary, file);
}
