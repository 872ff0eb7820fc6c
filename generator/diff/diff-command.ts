// `toolguard diff [BASE] [HEAD]`: reads both sides, compares, prints one format, and exits by
// the `--fail-on` policy. Exit codes as the rest of the CLI: 0 done (policy not met), 1 the
// policy is met or an input (a ref, a folder, a schema) is wrong, 2 the command was misused.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ledgerFiles } from "../../templates/runtime/ledger/ledger-files.ts";
import { readLedger } from "../../templates/runtime/ledger/ledger-jsonl.ts";
import { loadConfig } from "../config.ts";
import { UsageError } from "../errors.ts";
import { diffSides, meetsPolicy } from "./diff-report.ts";
import { defaultBranch, type GitError, gitPath, mergeBase, packageVersionAt, repositoryRoot, resolveCommit } from "./git.ts";
import { DEFAULT_RECENT_CALLS } from "./ledger-replay.ts";
import { readSide, type Side, SideError, type SideSource } from "./read-side.ts";
import { renderMarkdown } from "./render-markdown.ts";
import { renderText } from "./render-text.ts";

export const DIFF_HELP = `toolguard diff [BASE] [HEAD]: what the schema changes mean, for tool teams and for models

  BASE, HEAD   git refs (default: the merge base with the default branch, and the working tree),
               or two folders of schemas
  --format F   text (default), md (a pull-request comment) or json
  --fail-on P  exit 1 when a change is (possibly) breaking-for-models or breaking-for-tool-teams
  --ledger F   replay the ledger's recent successful calls against the new schemas
  --recent N   how many recent successful calls per tool to replay (default ${DEFAULT_RECENT_CALLS})
  --config F   config file naming the schema sets (as for generate)
  --strict     fail on OpenAPI operations that would be skipped
`;

const FORMATS = ["text", "md", "json"] as const;
const POLICIES = ["breaking-for-models", "breaking-for-tool-teams"] as const;

// Throws on an unknown option or a missing value; the caller turns that into a usage error.
function parseDiffArgs(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: "string", default: "text" },
      "fail-on": { type: "string", multiple: true },
      ledger: { type: "string" },
      recent: { type: "string" },
      config: { type: "string" },
      strict: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** Runs `toolguard diff` with the arguments after `diff`; resolves to the exit code. */
export async function diffCommand(argv: readonly string[], cwd: string): Promise<number> {
  let parsed: ReturnType<typeof parseDiffArgs>;
  try {
    parsed = parseDiffArgs(argv);
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(DIFF_HELP);
    return 0;
  }
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) return usage(`--format must be one of ${FORMATS.join(", ")}, got "${values.format}"`);
  const policies = (values["fail-on"] ?? []) as (typeof POLICIES)[number][];
  const badPolicy = policies.find((policy) => !POLICIES.includes(policy));
  if (badPolicy !== undefined) return usage(`--fail-on must be ${POLICIES.join(" or ")}, got "${badPolicy}"`);
  if (positionals.length > 2) return usage(`diff takes at most two sides (BASE and HEAD), got ${positionals.length}`);
  const recent = values.recent === undefined ? DEFAULT_RECENT_CALLS : Number(values.recent);
  if (!Number.isInteger(recent) || recent < 1) return usage(`--recent must be a positive whole number, got "${values.recent}"`);

  const scratch = mkdtempSync(path.join(tmpdir(), "toolguard-diff-"));
  try {
    const ledger = values.ledger === undefined ? undefined : await loadLedger(path.resolve(cwd, values.ledger));
    const { sides, baseVersions } = await readSides(positionals, cwd, scratch, values.config, values.strict === true);
    const report = diffSides(sides[0], sides[1], { ...(ledger ? { ledger } : {}), recentCalls: recent, baseVersions });
    process.stdout.write(format === "json" ? `${JSON.stringify(report, null, 2)}\n` : format === "md" ? renderMarkdown(report) : renderText(report));
    const met = policies.filter((policy) => meetsPolicy(report, policy));
    for (const policy of met)
      process.stderr.write(
        `toolguard diff: --fail-on ${policy}: ${policy === "breaking-for-models" ? `models: ${report.models}` : `tool teams: ${report.toolTeams}`}\n`,
      );
    return met.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof SideError) {
      process.stderr.write(`toolguard diff: cannot read the ${error.label} side.\n${error.format()}\n`);
      return 1;
    }
    if (error instanceof DiffInputError) {
      process.stderr.write(`toolguard diff: ${error.message}\n`);
      return 1;
    }
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A side that cannot be found at all (a ref that names no commit, no git repository). */
class DiffInputError extends Error {}

function usage(message: string): number {
  process.stderr.write(`toolguard: ${message}\n\n${DIFF_HELP}`);
  return 2;
}

async function loadLedger(file: string) {
  // Other writers' files (`<stem>.<id><ext>`) are the ledger too, even before its owner's `<path>` exists.
  if (ledgerFiles(file).length === 0) throw new DiffInputError(`--ledger: no ledger at ${file}`);
  try {
    return await readLedger(file);
  } catch (error) {
    throw new DiffInputError(`--ledger: cannot read ${file}: ${(error as Error).message}`);
  }
}

interface ReadSides {
  readonly sides: readonly [Side, Side];
  /** Per set, its generated package's version at the base commit (git sides only). */
  readonly baseVersions: readonly (string | undefined)[];
}

async function readSides(positionals: readonly string[], cwd: string, scratch: string, configFile: string | undefined, strict: boolean): Promise<ReadSides> {
  const folders = positionals.map((arg) => path.resolve(cwd, arg)).filter((dir) => existsSync(dir) && statSync(dir).isDirectory());
  if (positionals.length === 2 && folders.length === 2) {
    // Two folders: each is one schema set, no config and no git involved.
    const read = (label: "base" | "head", index: number) =>
      readSide({
        label,
        source: { kind: "folder", dir: folders[index] as string, shown: positionals[index] as string },
        sets: [],
        repoRoot: undefined,
        scratch: path.join(scratch, label),
        strict,
      });
    return { sides: await Promise.all([read("base", 0), read("head", 1)]), baseVersions: [] };
  }
  const root = repositoryRoot(cwd);
  if (folders.length > 0 && positionals.length === 2) {
    // One side is a folder: the other is either a real ref (comparing a folder with a commit is
    // a usage error) or, far more often, a mistyped folder, which must be named as such.
    const [base, head] = positionals as [string, string];
    const baseIsFolder = folders[0] === path.resolve(cwd, base);
    const [label, other, folder] = baseIsFolder ? ["head", head, base] : ["base", base, head];
    if (!root || !resolveCommit(root, other)) {
      throw new DiffInputError(`${label} side: "${other}" is neither a folder nor a git ref (the other side, "${folder}", is a folder)`);
    }
    throw new UsageError(`compare two folders or two git refs, not one of each (${positionals.join(", ")})`);
  }
  const config = await loadConfig(cwd, configFile);
  if (!root) {
    // Names that are no folder, outside git: most often mistyped folders, said as such.
    const named = positionals.map((arg) => `"${arg}"`).join(" and ");
    throw new DiffInputError(
      positionals.length === 0
        ? `${cwd} is not inside a git repository: name two folders to compare instead`
        : `${named} ${positionals.length === 1 ? "is not a folder" : "are not folders"}, and ${cwd} is not inside a git repository for ${positionals.length === 1 ? "it" : "them"} to be git refs: name two folders to compare`,
    );
  }
  type GitSource = Extract<SideSource, { kind: "git" }>;
  const gitSide = (label: "base" | "head", ref: string): GitSource => {
    const commit = resolveCommit(root, ref);
    if (!commit) throw new DiffInputError(`${label} side: the git ref "${ref}" names no commit in ${root}`);
    return { kind: "git", ref, commit };
  };
  let baseSource: GitSource;
  if (positionals[0] !== undefined) baseSource = gitSide("base", positionals[0]);
  else {
    const branch = defaultBranch(root);
    if (!branch) throw new DiffInputError("base side: no default branch found (origin/HEAD, main or master); name the base ref");
    let commit: string;
    try {
      commit = mergeBase(root, "HEAD", branch);
    } catch (error) {
      throw new DiffInputError(`base side: HEAD and ${branch} have no merge base (${(error as GitError).message || "unrelated histories"}); name the base ref`);
    }
    baseSource = { kind: "git", ref: `merge-base of HEAD and ${branch}`, commit };
  }
  const headSource: SideSource = positionals[1] !== undefined ? gitSide("head", positionals[1]) : { kind: "worktree" };
  const common = { sets: config.sets, repoRoot: root, strict: strict || config.strict };
  const sides = await Promise.all([
    readSide({ label: "base", source: baseSource, scratch: path.join(scratch, "base"), ...common }),
    readSide({ label: "head", source: headSource, scratch: path.join(scratch, "head"), ...common }),
  ]);
  // The bump is the one `generate` would apply to the package as it is at the base.
  const baseCommit = baseSource.commit;
  const baseVersions = config.sets.map((set) => packageVersionAt(root, baseCommit, `${gitPath(root, set.out)}/package.json`));
  return { sides, baseVersions };
}
