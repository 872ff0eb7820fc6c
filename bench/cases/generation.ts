// Figure 4, one repetition: generation on GitHub's full spec in child processes, each timed by
// /usr/bin/time (wall clock, peak RSS): a full `toolguard generate` with an empty cache, a
// re-run with nothing changed, a re-run after one request body changed, and openapi-typescript
// (bench/baseline) on the same spec. Prints one JSON line.
//
// toolguard runs as users run it: the built CLI (dist/generator/main.js, what the installed
// package's bin runs), with the runtime and tool template its build precompiled. `npm run build`
// makes it first, untimed; the TypeScript sources of a checkout compile those on the fly instead.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { GITHUB_SPEC, SCRATCH } from "../lib/fixtures.ts";
import { REPO, timed } from "../lib/processes.ts";

const dir = path.join(SCRATCH, "generation");
const spec = path.join(dir, "schemas/api.github.com.json");
const baseline = path.join(REPO, "bench/baseline/node_modules/.bin/openapi-typescript");
if (!existsSync(baseline)) throw new Error("openapi-typescript is missing: run `npm ci --prefix bench/baseline`");

execFileSync("npm", ["run", "build", "--silent"], { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] });
const cli = path.join(REPO, "dist/generator/main.js");

rmSync(dir, { recursive: true, force: true });
mkdirSync(path.dirname(spec), { recursive: true });
const original = readFileSync(GITHUB_SPEC, "utf8");
writeFileSync(spec, original);
const generate = (): ReturnType<typeof timed> => timed(process.execPath, [cli, "generate", "--quiet"], dir);

const full = generate();
const unchanged = generate();
// One request body changes: a new optional field on issues/create.
const document = JSON.parse(original) as {
  paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }>;
};
const body = document.paths["/repos/{owner}/{repo}/issues"]?.post.requestBody.content["application/json"]?.schema;
if (!body) throw new Error("issues/create's request body moved in the spec");
body.properties.bench_note = { type: "string", description: "Added by the benchmark." };
writeFileSync(spec, JSON.stringify(document));
const oneChanged = generate();
const changedFile = readFileSync(path.join(dir, "generated/tools/issues-create.js"), "utf8");
if (!changedFile.includes("bench_note")) throw new Error("the one-changed run did not regenerate issues/create");
const openapiTypescript = timed(baseline, [GITHUB_SPEC, "-o", path.join(dir, "openapi-typescript.d.ts")], dir);

const pick = (run: ReturnType<typeof timed>) => ({ wallMs: run.wallMs, peakRssMb: run.peakRssMb });
console.log(JSON.stringify({ full: pick(full), unchanged: pick(unchanged), oneChanged: pick(oneChanged), openapiTypescript: pick(openapiTypescript) }));
