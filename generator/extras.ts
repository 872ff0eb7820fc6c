// The optional parts a generated package carries only when its set asks for them
// (`extras: ["openai", ...]` in the config): one SDK adapter each (or the stores on one
// database), kept as real TypeScript under templates/extras/<name>/ and compiled into
// `<out>/extras/<name>/`. Each adapter needs its SDK (a store its driver),
// which the generated package names as an optional peer dependency, never as a dependency:
// a package without the extra, or a user who never imports it, installs no SDK.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "./paths.ts";

export interface ExtraInfo {
  /** What it adapts, for messages. */
  readonly title: string;
  /** The npm package the adapter imports; a peer dependency of the generated package. */
  readonly sdk: string;
  /** Whether it can send tools to OpenAI in strict mode (so generate reports strictness). */
  readonly strictMode: boolean;
}

/** Every extra, by the name a config lists it under; test/generator/extras.test.ts checks these are templates/extras/*. */
export const EXTRAS: Readonly<Record<string, ExtraInfo>> = {
  "ai-sdk": { title: "Vercel AI SDK", sdk: "ai", strictMode: false },
  anthropic: { title: "Anthropic Messages", sdk: "@anthropic-ai/sdk", strictMode: false },
  mcp: { title: "MCP server", sdk: "@modelcontextprotocol/sdk", strictMode: false },
  openai: { title: "OpenAI Chat Completions and Responses", sdk: "openai", strictMode: true },
  "openai-agents": { title: "OpenAI Agents", sdk: "@openai/agents", strictMode: true },
  // Not an SDK adapter: the stores shared by replicas (docs/replicas.md), on the `postgres` driver.
  postgres: { title: "PostgreSQL stores", sdk: "postgres", strictMode: false },
};

export const EXTRA_NAMES: readonly string[] = Object.keys(EXTRAS).sort();

/**
 * The peer dependency ranges for `extras`, from the version toolguard's own tests pin: its major
 * line (`^7.59.0` for openai 7.59.0). A 0.x SDK gets `>=0.20.0 <1.0.0` rather than `^0.20.0`,
 * which would admit no later minor, so a user on the SDK's next release is not refused by npm:
 * `npm run test:sdk-latest` runs the adapters on each SDK's newest release, and the one SDK
 * internal an adapter relies on is checked when it is used (openai-agents' guardModelProvider).
 */
export function extraPeerDependencies(extras: readonly string[]): Record<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
  const peers: [string, string][] = [];
  for (const name of extras) {
    const { sdk } = EXTRAS[name] as ExtraInfo;
    const version = manifest.devDependencies?.[sdk];
    if (!version) throw new Error(`toolguard's package.json does not pin ${sdk}, which the ${name} extra is tested with`);
    peers.push([sdk, peerRange(version)]);
  }
  return Object.fromEntries(peers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The range a package built from `version` accepts: its major line, or all of 0.x from it. */
export function peerRange(version: string): string {
  return version.startsWith("0.") ? `>=${version} <1.0.0` : `^${version}`;
}
