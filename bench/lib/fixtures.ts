// The generated packages the benchmark imports, built with toolguard's own CLI under
// .scratch/bench/ (gitignored): a small one (the invoice tool and three GitHub request bodies,
// from a copy of GitHub's spec trimmed to those paths) and GitHub's full spec.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "./processes.ts";

export const GITHUB_SPEC = path.join(REPO, "node_modules/@octokit/openapi/generated/api.github.com.json");
export const SCRATCH = path.join(REPO, ".scratch/bench");
export const SMALL = path.join(SCRATCH, "small");
export const FULL = path.join(SCRATCH, "github");
/** Ten GitHub operations (figure 1's four and six more): the small package of the cold-start figure. */
export const TEN = path.join(SCRATCH, "ten");

/**
 * The GitHub operations of figure 1, by path and method: the three request bodies the issue
 * names, and an organisation ruleset, whose rules are a `oneOf` of 21 `$ref`s (the shape where
 * toolguard's validator and ajv's own output differ most; see fold-combinators.ts).
 */
export const GITHUB_OPERATIONS = [
  ["/repos/{owner}/{repo}/issues", "post"],
  ["/repos/{owner}/{repo}/pulls", "post"],
  ["/user/repos", "post"],
  ["/orgs/{org}/rulesets", "post"],
] as const;

/** Six more operations for the ten-tool package of figure 3, beside GITHUB_OPERATIONS. */
const MORE_OPERATIONS = [
  ["/repos/{owner}/{repo}/issues/{issue_number}/comments", "post"],
  ["/repos/{owner}/{repo}/labels", "post"],
  ["/repos/{owner}/{repo}/releases", "post"],
  ["/repos/{owner}/{repo}/milestones", "post"],
  ["/orgs/{org}/repos", "post"],
  ["/gists", "post"],
] as const;

/** Builds the small package, and GitHub's whole package and the ten-tool one unless `full` is false. */
export function buildFixtures({ full = true }: { readonly full?: boolean } = {}): void {
  mkdirSync(path.join(SMALL, "schemas"), { recursive: true });
  cpSync(path.join(REPO, "schemas/create-invoice.json"), path.join(SMALL, "schemas/create-invoice.json"));
  cpSync(path.join(REPO, "schemas/_shared"), path.join(SMALL, "schemas/_shared"), { recursive: true });
  const spec = JSON.parse(readFileSync(GITHUB_SPEC, "utf8")) as { paths: Record<string, Record<string, unknown>> };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [route, method] of GITHUB_OPERATIONS) paths[route] = { [method]: spec.paths[route]?.[method] };
  writeIfChanged(path.join(SMALL, "schemas/github.json"), JSON.stringify({ ...spec, paths }));
  generate(SMALL);
  if (!full) return;
  mkdirSync(path.join(TEN, "schemas"), { recursive: true });
  const ten: Record<string, Record<string, unknown>> = {};
  for (const [route, method] of [...GITHUB_OPERATIONS, ...MORE_OPERATIONS]) ten[route] = { [method]: spec.paths[route]?.[method] };
  writeIfChanged(path.join(TEN, "schemas/github.json"), JSON.stringify({ ...spec, paths: ten }));
  generate(TEN);
  mkdirSync(path.join(FULL, "schemas"), { recursive: true });
  writeIfChanged(path.join(FULL, "schemas/api.github.com.json"), readFileSync(GITHUB_SPEC, "utf8"));
  generate(FULL);
}

function generate(dir: string): void {
  execFileSync(process.execPath, [path.join(REPO, "generator/main.ts"), "generate", "--quiet"], { cwd: dir, stdio: "inherit" });
}

function writeIfChanged(file: string, text: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== text) writeFileSync(file, text);
}

if (import.meta.main) buildFixtures();
