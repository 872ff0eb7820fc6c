// What `toolguard help` prints: every command and flag (test/generator/cli-flags.test.ts holds
// it to the parser's options), also shown after a usage error.

export const HELP = `toolguard: typed, guarded tool clients from tool schemas

Usage:
  toolguard generate [-c FILE] [--set NAME]... [--strict] [-w] [-q] [--no-cache]
                     write the package of every schema set (or of the sets named), and with
                     --watch again on every schema change
  toolguard check    [-c FILE] [--set NAME]... [--strict] [-q] [--no-cache]
                     exit 1 if the committed output is stale
  toolguard report   [LEDGER] [--ledger SOURCE] [--json | --markdown] [--html FILE]
                     [--since 24h] [--fail-above N] [--schemas DIR]
                     failure rates per tool, rule and argument, findings with the change to
                     make, change alarms, from a ledger and its rotated files (default
                     .toolguard/ledger.jsonl; or postgres://...); --since: chains started in
                     the last 90m, 24h, 7d..., and a warning when the ledger reaches back less
                     far; --fail-above: exit 1 naming the tools over N failed calls per 1000
  toolguard rehearse [-c FILE] [--set NAME]... [--tool NAME]... [--seed N] [--limit N] [--json]
                     the mistakes models make against each tool's schema, the message the
                     guard gives each and whether a literal repairer could act on it, weakest
                     first, with the schema change that would help (docs/rehearse.md)
  toolguard diff     [BASE] [HEAD] [--format md|json|text] [--fail-on ...] [--ledger FILE]
                     what schema changes mean (toolguard diff --help)
  toolguard help     this text (also -h, --help)
  toolguard --version  (also -v)

Options:
  -c, --config FILE  config file (default: toolguard.config.{ts,mjs,js,json} in the working
                     directory; without one, schemas/ -> generated/)
  --set NAME         only this schema set; repeat for several. NAME is the set's packageName,
                     its out folder or its schemas folder (as written in the config)
  --strict           fail on OpenAPI operations that would be skipped
  -w, --watch        (generate) keep running; regenerate the sets whose schemas change
  -q, --quiet        print errors only
  --no-cache         ignore and do not fill the cache (.toolguard/cache/ beside the config)
  --json             (report, rehearse) print the report as JSON
  --markdown         (report) print the report as markdown (PR comments, CI summaries)
  --html FILE        (report) also write the report as one self-contained HTML page
  --fail-above N     (report) exit 1 when a tool has more than N failed calls per 1000
  --schemas DIR      (report) the tool schema files findings name (default schemas/)
  --since TIME       (report) only chains started within TIME (90m, 24h, 7d)
  --ledger SOURCE    (report) the ledger to read: a JSONL file, or postgres://... (the postgres
                     extra's)
  --tool NAME        (rehearse) only this tool; repeat for several
  --seed N           (rehearse) the mistake generator's seed, a whole number (default 1): the
                     same seed gives the same cases
  --limit N          (rehearse) at most N cases a tool, spread over the classes (default 40)
`;
