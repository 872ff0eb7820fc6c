// `npm run test:sdk-latest`: the SDK adapters on each SDK's newest published release. It needs
// the npm registry, so it is not part of `npm test`. It makes a throwaway consumer project in the
// system's temp folder, installs the newest `openai`, `@anthropic-ai/sdk`, `@openai/agents`, `ai`
// and `@ai-sdk/openai` there (and the project's own pins of everything else the tests import),
// copies in the generated example package, the README's loops and the adapter tests, and runs
// their repair and refusal scenarios (`--all`: every test in those files) against the fake model
// servers on 127.0.0.1. It prints the versions it ran and exits with vitest's code.
//   npm run test:sdk-latest [-- --all] [-- --keep]
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "../..");
/** The SDKs whose newest release is installed: what the adapters import, and the AI SDK's provider. */
const SDKS = ["openai", "@anthropic-ai/sdk", "@openai/agents", "ai", "@ai-sdk/openai"] as const;
/** What else the copied tests and the generated package import, at the project's own pins. */
const PINNED = ["@opentelemetry/api", "re2js", "zod", "vitest", "vite"] as const;
/** The adapter tests, run as they are in the repository; their helpers come along. */
const TESTS = ["openai.test.ts", "anthropic.test.ts", "ai-sdk.test.ts", "openai-agents.test.ts", "sdk-own-helpers.test.ts"];
const HELPERS = ["fake-model-server.ts", "fake-model-stream.ts", "invoice-script.ts"];

const args = new Set(process.argv.slice(2));
const manifest = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as Record<string, Record<string, string>>;
const pins = { ...manifest.dependencies, ...manifest.devDependencies };

const dir = mkdtempSync(path.join(tmpdir(), "toolguard-sdk-latest-"));
try {
  const dependencies: Record<string, string> = Object.fromEntries(SDKS.map((sdk) => [sdk, "latest"]));
  for (const name of PINNED) dependencies[name] = pins[name] ?? "";
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "sdk-latest", private: true, type: "module", dependencies }, null, 2));
  console.log(`Installing the newest SDKs into ${dir} ...`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "inherit" });

  cpSync(path.join(REPO, "generated"), path.join(dir, "generated"), { recursive: true });
  cpSync(path.join(REPO, "examples/adapters"), path.join(dir, "examples/adapters"), { recursive: true });
  for (const file of [...TESTS, ...HELPERS]) cpSync(path.join(REPO, "test/adapters", file), path.join(dir, "test/adapters", file));
  writeFileSync(
    path.join(dir, "vitest.config.ts"),
    `import { defineConfig } from "vitest/config";
const generated = new URL("./generated/", import.meta.url).pathname;
export default defineConfig({
  resolve: { alias: [
    { find: /^@acme\\/agent-tools\\/([a-z-]+)$/, replacement: \`\${generated}extras/$1/index.js\` },
    { find: /^@acme\\/agent-tools$/, replacement: \`\${generated}index.js\` },
  ] },
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 },
});
`,
  );

  const installed = [...SDKS, "vitest"].map((name) => {
    const { version } = JSON.parse(readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string };
    return `${name} ${version} (the repository pins ${pins[name]})`;
  });
  console.log(`Running the adapter scenarios with:\n  ${installed.join("\n  ")}`);
  const pattern = args.has("--all") ? [] : ["--testNamePattern", "repair|refus"];
  const run = spawnSync(process.execPath, [path.join(dir, "node_modules/vitest/vitest.mjs"), "run", ...pattern], { cwd: dir, stdio: "inherit" });
  console.log(`\nSDK versions run:\n  ${installed.join("\n  ")}`);
  process.exitCode = run.status ?? 1;
} finally {
  if (args.has("--keep")) console.log(`Kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
