// The one hash of toolguard's own sources: every template, every file of the generator as it
// runs (TypeScript in a checkout, dist/generator once built), and the versions of the libraries
// that emit code. Whatever generation makes from toolguard alone is keyed by it: the cache's
// entries (cache.ts) and the precompiled runtime and tool template (precompiled.ts). Paths are
// hashed relative to their folder, so a key made in a checkout holds in node_modules/toolguard.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TEMPLATES_DIR } from "../paths.ts";

/** The generator's own code, in the form that runs: the folder above this one. */
const GENERATOR_DIR = fileURLToPath(new URL("../", import.meta.url));

/** The libraries whose output is part of the generated files; ts-morph pins the TypeScript that compiles the runtime. */
const EMITTING_PACKAGES = ["ajv", "json-schema-to-typescript", "prettier", "ts-morph", "@apidevtools/json-schema-ref-parser", "yaml"];

export interface SourceDirs {
  readonly templates: string;
  readonly generator: string;
}

const DEFAULT_DIRS: SourceDirs = { templates: TEMPLATES_DIR, generator: GENERATOR_DIR };

let running: Promise<string> | undefined;

/** The hash of the sources in `dirs` (toolguard's own by default, hashed once per process). */
export function sourcesHash(dirs: SourceDirs = DEFAULT_DIRS): Promise<string> {
  if (dirs !== DEFAULT_DIRS) return hashSources(dirs);
  running ??= hashSources(dirs);
  return running;
}

async function hashSources(dirs: SourceDirs): Promise<string> {
  const digest = createHash("sha256");
  for (const [label, dir] of [
    ["templates", dirs.templates],
    ["generator", dirs.generator],
  ] as const) {
    // Synchronous reads: a few hundred small files, which promise-based reads make several times slower.
    for (const file of await listFiles(dir)) digest.update(`\0${label}/${path.relative(dir, file).split(path.sep).join("/")}\0`).update(readFileSync(file));
  }
  for (const name of EMITTING_PACKAGES) {
    const manifest = fileURLToPath(import.meta.resolve(`${name}/package.json`));
    digest.update(`\0${name}@${(JSON.parse(await readFile(manifest, "utf8")) as { version: string }).version}`);
  }
  return digest.digest("hex");
}

/**
 * Every file under `dir`, sorted, skipping `node_modules` folders inside it (not above it: an
 * installed toolguard's own files are all under one).
 */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(dir, file).split(path.sep).includes("node_modules"))
    .sort();
}
