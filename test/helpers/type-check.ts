// tsc (the repository's typescript@7) run over a folder's tsconfig.json, for tests that check a
// generated package is valid TypeScript the way a consumer's build would.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { REPO } from "./temp-project.ts";

/** tsc's complaints about `dir`'s tsconfig.json, or "" when it compiles. */
export function typeCheck(dir: string): string {
  try {
    execFileSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}
