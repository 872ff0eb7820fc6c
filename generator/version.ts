// toolguard's own version, from its package.json (one folder up in a checkout, two from dist/).
import { existsSync, readFileSync } from "node:fs";

export function toolguardVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    const file = new URL(relative, import.meta.url);
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (manifest.name === "toolguard" && typeof manifest.version === "string") return manifest.version;
  }
  return "unknown";
}
