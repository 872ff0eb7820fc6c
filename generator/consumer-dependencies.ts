// Whether the project that generates a package will have that package's run-time dependencies
// (re2js, @opentelemetry/api) in production. toolguard itself is a devDependency, so
// `npm ci --omit=dev` leaves them out unless the project depends on the generated package
// (`npm install ./generated`, which writes "file:generated") or lists them itself.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { EmittedFile } from "./emit/runtime.ts";

interface Manifest {
  readonly name?: string;
  readonly dependencies?: Record<string, string>;
}

/** A note to print when the project's package.json would leave them out, else `undefined`. */
export function missingRuntimeDependencies(projectDir: string, out: string, packageName: string, files: readonly EmittedFile[]): string | undefined {
  const manifestFile = path.join(projectDir, "package.json");
  if (!existsSync(manifestFile) || path.resolve(out) === path.resolve(projectDir)) return undefined;
  let project: Manifest;
  try {
    project = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
  } catch {
    return undefined; // npm will say what is wrong with it
  }
  const generated = files.find((file) => file.path === "package.json");
  const needed = Object.keys((generated ? (JSON.parse(generated.content) as Manifest).dependencies : undefined) ?? {});
  const listed = project.dependencies ?? {};
  if (Object.hasOwn(listed, packageName) || needed.every((name) => Object.hasOwn(listed, name))) return undefined;
  const relative = path.relative(projectDir, out).split(path.sep).join("/");
  return `note: ${relative}/ imports ${needed.join(" and ")} at run time, and package.json does not list ${packageName} in "dependencies", so a production install (npm ci --omit=dev) leaves them out. Run \`npm install ./${relative}\` (adds "${packageName}": "file:${relative}") and import from "${packageName}".`;
}
