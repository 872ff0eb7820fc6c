// The toolguard config: which schema sets to read and where each generated package goes.
// `toolguard.config.ts`, `.js`, `.mjs` or `.json` in the working directory; without one, a
// single set reads `schemas/` and writes `generated/`.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "./errors.ts";
import { argumentNamesOption } from "./config-argument-names.ts";
import { trustServersOption } from "./config-trust-servers.ts";
import { adviceOption } from "./advice/advice-option.ts";
import { EXTRA_NAMES } from "./extras.ts";

/** Argument names for OpenAPI parameters: operation (operationId, tool name or "*") -> "<in>.<name>" -> argument. */
export type ArgumentNames = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** One schema set, which becomes one generated package. */
export interface SchemaSetConfig {
  /**
   * Folder of tool files and OpenAPI documents, relative to the config file. Or an OpenAPI
   * document's root file: that document is read (its folder is the root its `$ref`s may reach),
   * as with `schemas: <its folder>` and `entry: <the file>`.
   */
  readonly schemas: string;
  /** Folder the generated package is written to; toolguard owns it entirely. */
  readonly out: string;
  /**
   * The generated package's npm name. Default: the out folder's name, lower-cased, with `-tools`
   * added unless it already ends in `tools` (`generated` -> `generated-tools`, `packages/tools`
   * -> `tools`, `agent-tools` -> `agent-tools`).
   */
  readonly packageName?: string;
  /**
   * The set is one OpenAPI document split over files: its root file, relative to `schemas`.
   * Default: every OpenAPI document in the folder that no other part references is an entry,
   * and files reached through `$ref` are never read as tools.
   */
  readonly entry?: string;
  /**
   * OpenAPI operations whose own `servers` (on the operation or its path item) are on another
   * origin than the document's are skipped, because the credentials your `auth` hook adds are
   * meant for the document's hosts. `true` accepts those servers for every operation of the set;
   * a list accepts them for the operations it names (by `operationId` or tool name). The
   * document's own `x-toolguard-trust-servers: true` does the same from inside it. Default: none.
   */
  readonly trustServers?: boolean | readonly string[];
  /**
   * Renames the arguments OpenAPI parameters travel under, without editing the vendor's file (as
   * `x-toolguard-arg` on the parameter does from inside it). Keys are operations (`operationId`
   * or tool name), or `"*"` for every operation of the set; values map `"<in>.<name>"` (`in`:
   * path, query, header or cookie) to the argument name: `{"getThing": {"query.id": "query_id"}}`
   * gives a path and a query parameter both named `id` distinct arguments. An operation's own
   * entry wins over `"*"`. Default: every parameter is the argument of its own name.
   */
  readonly argumentNames?: ArgumentNames;
  /**
   * Schemas from zod-style generators list fields with a default as required, though the server
   * fills them in: with `true`, a required field whose schema has a `default` is optional. Each
   * tool so changed is named in the generation summary. Default `false`.
   */
  readonly defaultsOptional?: boolean;
  /**
   * What a `format` toolguard does not check is (one it has no checker for, such as Notion's
   * `"json"`). `"annotate"` (default): as JSON Schema 2020-12 and OpenAPI define it, an
   * annotation: the tool is generated, the format shown to the model and not checked, and the
   * generation summary warns with the file, the tool and the format's place in its schema.
   * `"refuse"`: such a tool is an input error, for teams that want every format checked.
   */
  readonly unknownFormats?: "annotate" | "refuse";
  /**
   * The generated package's version. Default `"0.0.0"`. A plain `"x.y.z"` is written as it is;
   * `{ from: "schema-diff", base: "origin/main" }` takes the version the package had at the git
   * ref `base` and raises it by what `toolguard diff` finds between the schemas there and in the
   * working tree (docs/diff.md). Either way the version follows from the inputs alone.
   */
  readonly version?: string | VersionFromDiff;
  /**
   * SDK adapters to include, each importable as `<packageName>/<extra>` with its SDK as an
   * optional peer dependency: `"openai"` (Chat Completions and Responses), `"anthropic"`,
   * `"ai-sdk"` (Vercel AI SDK), `"openai-agents"`, `"mcp"` (server). Default: none.
   */
  readonly extras?: readonly string[];
  /**
   * What `generate` says about the schemas before any traffic (docs/advice.md): identifiers the
   * model must invent, enums of many undescribed values, required fields with a default,
   * arguments likely to be cut off. Advice is never an error. `false` silences it for the set;
   * `ignore` silences a tool (`"create_invoice"`) or one kind of advice on one tool
   * (`"create_invoice:invented-id"`). Default: all advice shown.
   */
  readonly advice?: false | { readonly ignore?: readonly string[] };
}

/** A package version derived from the schema changes since a git ref. */
export interface VersionFromDiff {
  readonly from: "schema-diff";
  /** The git ref whose generated package.json holds the version to raise (a branch, a release tag). */
  readonly base: string;
  /** The version when the package does not exist at `base` yet. Default `"0.1.0"`. */
  readonly initial?: string;
}

export interface ToolguardConfig {
  /** The schema sets. Default: `[{ schemas: "schemas", out: "generated" }]`. */
  readonly sets?: readonly SchemaSetConfig[];
  /**
   * Let `$ref`s reach http(s) URLs during generation. Default `false`: a build must not depend
   * on the network, and schemas should be vendored under the schema folder.
   */
  readonly allowNetwork?: boolean;
  /**
   * Fail instead of skipping OpenAPI operations that cannot be generated (unsupported content
   * type, untranslatable schema). Default `false`: skips are listed in the summary.
   */
  readonly strict?: boolean;
}

/** Identity function that gives a config file its types and editor documentation. */
export function defineConfig(config: ToolguardConfig): ToolguardConfig {
  return config;
}

export interface ResolvedSet {
  readonly schemas: string;
  readonly out: string;
  readonly packageName: string;
  /** Absolute path of the entry document, when the config names one. */
  readonly entry?: string;
  readonly defaultsOptional?: boolean;
  /** Present only as "refuse" (the default is "annotate"); see SchemaSetConfig. */
  readonly unknownFormats?: "refuse";
  /** Operations whose own servers on other origins are accepted: all (`true`) or those named. */
  readonly trustServers?: true | readonly string[];
  /** Argument names for parameters, by operation (or "*") then "<in>.<name>"; see SchemaSetConfig. */
  readonly argumentNames?: ArgumentNames;
  /** The version to write; a rule still to be worked out (generator/diff/package-version.ts), or none for 0.0.0. */
  readonly version?: string | VersionFromDiff;
  /** The extras to include, sorted, without repeats; none when absent. */
  readonly extras?: readonly string[];
  /** `false`: no advice; otherwise what it ignores (absent: nothing). */
  readonly advice?: false | { readonly ignore: readonly string[] };
}

export interface ResolvedConfig {
  /** The file the config came from, or `undefined` for the defaults. */
  readonly file: string | undefined;
  readonly sets: readonly ResolvedSet[];
  readonly allowNetwork: boolean;
  readonly strict: boolean;
}

export const CONFIG_FILES: readonly string[] = ["toolguard.config.ts", "toolguard.config.mjs", "toolguard.config.js", "toolguard.config.json"];

export async function loadConfig(cwd: string, explicit?: string): Promise<ResolvedConfig> {
  const file = explicit ? path.resolve(cwd, explicit) : CONFIG_FILES.map((name) => path.join(cwd, name)).find((candidate) => existsSync(candidate));
  if (explicit && (!file || !existsSync(file))) throw new UsageError(`config file not found: ${explicit}`);
  const raw = file ? await readConfigFile(file) : {};
  return resolveConfig(raw, file, file ? path.dirname(file) : cwd);
}

async function readConfigFile(file: string): Promise<unknown> {
  if (file.endsWith(".json")) {
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new UsageError(`${file}: not valid JSON: ${(error as Error).message}`);
    }
  }
  try {
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    return module.default;
  } catch (error) {
    throw new UsageError(`${file}: could not load: ${(error as Error).message}`);
  }
}

export function resolveConfig(raw: unknown, file: string | undefined, base: string): ResolvedConfig {
  const where = file ?? "the default config";
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new UsageError(`${where}: the config must be an object (export default defineConfig({...}))`);
  const config = raw as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (!["sets", "allowNetwork", "strict"].includes(key)) throw new UsageError(`${where}: unknown option "${key}" (known: sets, allowNetwork, strict)`);
  }
  const flag = (name: string): boolean => {
    const value = config[name];
    if (value !== undefined && typeof value !== "boolean") throw new UsageError(`${where}: "${name}" must be true or false`);
    return value === true;
  };
  const rawSets = config.sets ?? [{ schemas: "schemas", out: "generated" }];
  if (!Array.isArray(rawSets) || rawSets.length === 0) throw new UsageError(`${where}: "sets" must be a non-empty array of {schemas, out}`);
  const sets = rawSets.map((set: unknown, index): ResolvedSet => {
    const at = `${where}: sets[${index}]`;
    if (set === null || typeof set !== "object") throw new UsageError(`${at} must be an object {schemas, out}`);
    const { schemas, out, packageName, version, extras, entry, defaultsOptional, unknownFormats, trustServers, argumentNames, advice, ...rest } = set as Record<
      string,
      unknown
    >;
    if (Object.keys(rest).length > 0)
      throw new UsageError(
        `${at}: unknown option "${Object.keys(rest)[0]}" (known: schemas, out, packageName, version, extras, entry, defaultsOptional, unknownFormats, trustServers, argumentNames, advice)`,
      );
    const renames = argumentNamesOption(argumentNames, `${at}.argumentNames`);
    if (unknownFormats !== undefined && unknownFormats !== "annotate" && unknownFormats !== "refuse")
      throw new UsageError(`${at}.unknownFormats must be "annotate" or "refuse"`);
    const trusted = trustServersOption(trustServers, `${at}.trustServers`);
    const adviceSetting = adviceOption(advice, `${at}.advice`);
    if (defaultsOptional !== undefined && typeof defaultsOptional !== "boolean") throw new UsageError(`${at}.defaultsOptional must be true or false`);
    if (entry !== undefined && (typeof entry !== "string" || entry === "" || path.isAbsolute(entry)))
      throw new UsageError(`${at}.entry must name a file relative to the set's schemas folder`);
    if (typeof schemas !== "string" || schemas === "") throw new UsageError(`${at}.schemas must name a folder (or an OpenAPI document's root file)`);
    if (typeof out !== "string" || out === "") throw new UsageError(`${at}.out must name a folder`);
    if (packageName !== undefined && (typeof packageName !== "string" || !/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(packageName))) {
      throw new UsageError(`${at}.packageName must be a valid npm package name`);
    }
    const outAbs = path.resolve(base, out);
    const resolvedVersion = versionOption(version, `${at}.version`);
    const named = path.resolve(base, schemas);
    // `schemas` naming a file (an OpenAPI entry document) reads that document, its folder the
    // root that its `$ref`s may reach: as `{schemas: <its folder>, entry: <the file>}`.
    const schemasIsFile = isFile(named);
    if (schemasIsFile && entry !== undefined)
      throw new UsageError(`${at}: schemas names a file (${schemas}) and entry is set too; name the folder in schemas, or drop entry`);
    const entryAbs = schemasIsFile ? named : typeof entry === "string" ? path.resolve(named, entry) : undefined;
    return {
      schemas: schemasIsFile ? path.dirname(named) : named,
      out: outAbs,
      packageName: (packageName as string | undefined) ?? defaultPackageName(outAbs),
      ...(resolvedVersion === undefined ? {} : { version: resolvedVersion }),
      extras: resolveExtras(extras, `${at}.extras`),
      ...(entryAbs !== undefined ? { entry: entryAbs } : {}),
      ...(defaultsOptional === true ? { defaultsOptional: true } : {}),
      ...(unknownFormats === "refuse" ? { unknownFormats: "refuse" as const } : {}),
      ...(trusted === undefined ? {} : { trustServers: trusted }),
      ...(renames === undefined ? {} : { argumentNames: renames }),
      ...(adviceSetting === undefined ? {} : { advice: adviceSetting }),
    };
  });
  const outs = new Set<string>();
  for (const set of sets) {
    if (outs.has(set.out)) throw new UsageError(`${where}: two sets write to the same folder ${set.out}`);
    outs.add(set.out);
    if (set.out === set.schemas || set.schemas.startsWith(set.out + path.sep))
      throw new UsageError(`${where}: out folder ${set.out} would overwrite the schemas it reads`);
  }
  return { file, sets, allowNetwork: flag("allowNetwork"), strict: flag("strict") };
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The package name a set gets without `packageName` (see the option's JSDoc). */
export function defaultPackageName(out: string): string {
  // npm names are lower case, and may not start with "." or "_".
  const base = path
    .basename(out)
    .toLowerCase()
    .replace(/[^a-z0-9-._~]/g, "-")
    .replace(/^[._]+/, "");
  if (base === "") return "tools";
  return /tools$/.test(base) ? base : `${base}-tools`;
}

const PLAIN_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

function versionOption(value: unknown, at: string): string | VersionFromDiff | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") {
    if (!PLAIN_VERSION.test(value)) throw new UsageError(`${at} must be a plain x.y.z version, got "${value}"`);
    return value;
  }
  if (value === null || typeof value !== "object") throw new UsageError(`${at} must be "x.y.z" or { from: "schema-diff", base: "<git ref>" }`);
  const { from, base, initial, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new UsageError(`${at}: unknown option "${Object.keys(rest)[0]}" (known: from, base, initial)`);
  if (from !== "schema-diff") throw new UsageError(`${at}.from must be "schema-diff"`);
  if (typeof base !== "string" || base === "") throw new UsageError(`${at}.base must name a git ref (a branch or a tag)`);
  if (initial !== undefined && (typeof initial !== "string" || !PLAIN_VERSION.test(initial)))
    throw new UsageError(`${at}.initial must be a plain x.y.z version`);
  return { from, base, ...(initial === undefined ? {} : { initial: initial as string }) };
}

/** The extras a set lists, checked against the ones toolguard has. */
function resolveExtras(raw: unknown, at: string): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new UsageError(`${at} must be an array of extra names (known: ${EXTRA_NAMES.join(", ")})`);
  const seen = new Set<string>();
  for (const [index, name] of raw.entries()) {
    if (typeof name !== "string" || !EXTRA_NAMES.includes(name)) {
      throw new UsageError(`${at}[${index}]: unknown extra ${JSON.stringify(name)} (known: ${EXTRA_NAMES.join(", ")})`);
    }
    if (seen.has(name)) throw new UsageError(`${at}[${index}]: "${name}" is listed twice`);
    seen.add(name);
  }
  return [...seen].sort();
}
