// Where toolguard's own files are, whether it runs from a checkout (generator/*.ts) or from
// its built form (dist/generator/*.js): the templates are read as source text in both cases.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "toolguard") return dir;
    if (path.dirname(dir) === dir) throw new Error(`toolguard: cannot find its own package.json above ${start}`);
  }
}

/** The toolguard package's root folder. */
export const PACKAGE_ROOT: string = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The templates generated packages are built from (TypeScript sources). */
export const TEMPLATES_DIR: string = path.join(PACKAGE_ROOT, "templates");
