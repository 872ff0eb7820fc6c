// The oracles, applied to one corpus entry (an OpenAPI document or an MCP snapshot):
//
// 1. generation ends in tools or in input errors (each naming file, pointer and fix), never in
//    an internal error;
// 2. every instance ajv accepts on the schema as written (the vendor's own examples, and
//    synthesized instances for every branch of every union) is accepted by the generated
//    guard; a vendor example its own schema refuses is counted apart, and its envelope must
//    say what to send;
// 3. every skipped operation has a reason, counted by cause;
// 5. the generated package type-checks under strict tsc and imports.
// (4, growth, is a test of its own: growth.test.ts.)
//
// Generation is toolguard's pipeline in this process (generatePackage, what `generate` runs), on
// a copy of the file in a fresh temporary folder; the package is written there and imported as a
// consumer would import it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { resolveConfig } from "../../generator/config.ts";
import { InputError, InputErrors } from "../../generator/errors.ts";
import { generatePackage } from "../../generator/generate.ts";
import type { ToolDescription } from "../../generator/ir.ts";
import { asWrittenJudge, type Validate } from "./as-written.ts";
import { type ManifestEntry, readEntry } from "./manifest.ts";
import { operationArguments, unsendablePath } from "./operation-arguments.ts";
import { ROOT } from "./sources.ts";
import { everyBranch, type Synthesizer } from "./synthesize.ts";

type Node = Record<string, unknown>;

/** Where each document is generated (gitignored, like the reports beside it). */
export const TEMP_ROOT = path.join(ROOT, ".corpus/tmp");

/** Synthesized instances per tool, at most. */
const INSTANCES_PER_TOOL = 24;
/** Examples kept per list in a result (counts are always whole). */
const KEPT = 5;

export interface FalseRejection {
  readonly tool: string;
  /** `example <pointer>` or `synthesized`. */
  readonly from: string;
  readonly instance: string;
  /** What the guard said: `rule at path`. */
  readonly errors: readonly string[];
}

export interface DocumentResult {
  readonly id: string;
  readonly kind: "openapi" | "mcp";
  /** generated: a package was written; refused: input errors; internal-error: anything else. */
  readonly status: "generated" | "refused" | "internal-error";
  readonly operations: number;
  readonly tools: number;
  /** Skipped operations by cause (the reason with its specifics taken out), and one example each. */
  readonly skips: Readonly<Record<string, { readonly count: number; readonly example: string }>>;
  readonly refusal?: { readonly count: number; readonly causes: Readonly<Record<string, number>>; readonly first: readonly string[] };
  readonly internalError?: string;
  /** Wall time of generation (read, translate, emit), in ms. */
  readonly generationMs: number;
  readonly packageBytes: number;
  readonly toolBytes: number;
  readonly warnings: number;
  /**
   * The judging process's peak resident memory (maxRSS, MB) when generation of this document
   * ended. A worker judges its documents one after another, so this is the peak of the process
   * so far; a document of 400 operations or more gets a process of its own (run.ts), so for
   * those it is that document's own peak.
   */
  readonly peakRssMb?: number;
  readonly oracle: {
    readonly instances: number;
    readonly examples: number;
    readonly synthesized: number;
    /** Synthesized instances the schema as written refuses: not used. */
    readonly synthesisMisses: number;
    /** Instances (vendor examples mostly) with an integer past 2^53 - 1: not judged. */
    readonly unsafeNumbers: number;
    /** Tools the judge could not map to their operation, by cause, with one example each. */
    readonly unjudged: Readonly<Record<string, { readonly count: number; readonly example: string }>>;
    readonly falseRejections: number;
    /** Every tool with at least one false rejection, sorted. */
    readonly falseRejectionTools: readonly string[];
    readonly falseRejectionExamples: readonly FalseRejection[];
    /** Vendor examples their own schema (as written) refuses. */
    readonly vendorExampleDefects: number;
    readonly vendorExampleDefectExamples: readonly string[];
    /** Of those, envelopes that do not say what to send (an error without path, rule or message). */
    readonly unhelpfulEnvelopes: number;
    /**
     * Calls the schema as written accepts but no request can carry: a path argument that is null
     * or empty (operation-arguments.ts, unsendablePath). Counted apart, never as accepted.
     */
    readonly notSendable: number;
    readonly notSendableExamples: readonly string[];
    /** Of those, the ones the guard accepted, or refused without naming the path argument with a rule and a message. */
    readonly notSendableUnhelpful: number;
  };
  readonly typecheck?: { readonly ok: boolean; readonly errors: readonly string[] };
  readonly importError?: string;
}

/** A skip reason without its specifics (pointers, quoted names, numbers), so causes group. */
export function causeOf(reason: string): string {
  return (
    reason
      .replace(/ \(at #[^)]*\)$/, "")
      .replace(/#\/[^\s),;]*/g, "#…")
      .replace(/`[^`]*`/g, "`…`")
      .replace(/"[^"]*"/g, '"…"')
      // An operation named by method and path (a name clash: Temporal's 121 routes that repeat an
      // operationId were 121 causes).
      .replace(/\b[A-Z][A-Z-]* \/[^\s,;)]*/g, "METHOD /…")
      .replace(/\b\d+\b/g, "N")
      .slice(0, 200)
  );
}

function shortText(value: unknown, limit = 240): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

interface GuardedLike {
  check(raw: unknown, context: { turn: string }): { ok: boolean; outcome?: { status: string; errors?: { path?: string; rule?: string; message?: string }[] } };
  ready(): Promise<void>;
}

interface ToolLike {
  implement(implementation: () => unknown, options: { ledger: unknown }): GuardedLike;
}

export interface JudgeOptions {
  /** Run strict tsc on the generated package (the slowest oracle). */
  readonly typecheck: boolean;
}

export async function judgeDocument(entry: ManifestEntry, options: JudgeOptions): Promise<DocumentResult> {
  const bytes = readEntry(entry);
  // Inside the repository, so the package's own imports (@opentelemetry/api) resolve from its node_modules.
  mkdirSync(TEMP_ROOT, { recursive: true });
  const dir = mkdtempSync(path.join(TEMP_ROOT, "doc-"));
  try {
    const schemas = path.join(dir, "schemas");
    mkdirSync(schemas);
    const documents = writeSchemas(entry, bytes, schemas);
    const set = resolveConfig({ sets: [{ schemas: "schemas", out: "out" }] }, undefined, dir).sets[0]!;
    const started = performance.now();
    let generated: Awaited<ReturnType<typeof generatePackage>>;
    try {
      generated = await generatePackage(set, { allowNetwork: false, strict: false });
    } catch (error) {
      return failed(entry, error, performance.now() - started);
    }
    const generationMs = performance.now() - started;
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    let packageBytes = 0;
    let toolBytes = 0;
    for (const file of generated.files) {
      const target = path.join(set.out, file.path);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.content);
      packageBytes += Buffer.byteLength(file.content);
      if (file.path.startsWith("tools/")) toolBytes += Buffer.byteLength(file.content);
    }
    const skips: Record<string, { count: number; example: string }> = {};
    for (const skip of generated.skipped) {
      const cause = causeOf(skip.reason);
      skips[cause] ??= { count: 0, example: `${skip.name}: ${skip.reason.slice(0, 300)}` };
      skips[cause].count++;
    }
    const base = {
      id: entry.id,
      kind: entry.kind,
      status: "generated" as const,
      operations: entry.operations,
      tools: generated.tools.length,
      skips,
      generationMs,
      packageBytes,
      toolBytes,
      warnings: generated.tools.reduce((sum, tool) => sum + (tool.warnings?.length ?? 0), 0),
      peakRssMb,
    };
    let imported: Record<string, ToolLike>;
    try {
      imported = ((await import(pathToFileURL(path.join(set.out, "index.js")).href)) as { tools: Record<string, ToolLike> }).tools;
      // Oracle 5: the package imports, every module of it. The index loads tool modules on first
      // use, so a module that does not load (a name declared twice) would otherwise surface as a
      // harness error in the middle of judging.
      for (const folder of ["tools", "tools/shared"].filter((name) => existsSync(path.join(set.out, name))))
        for (const file of readdirSync(path.join(set.out, folder))
          .filter((name) => name.endsWith(".js"))
          .sort())
          await import(pathToFileURL(path.join(set.out, folder, file)).href);
    } catch (error) {
      return { ...base, oracle: emptyOracle(), importError: String((error as Error).stack ?? error).slice(0, 600) };
    }
    const { MemorySink } = (await import(pathToFileURL(path.join(set.out, "runtime/index.js")).href)) as { MemorySink: new () => unknown };
    const oracle = await judgeTools(entry, documents, generated.tools, imported, MemorySink);
    return { ...base, oracle, ...(options.typecheck ? { typecheck: typecheck(dir) } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Generates a one-tool package once, so that the first document a process judges is not charged
 * for loading TypeScript, prettier and ajv (its generation time is then comparable with the rest).
 */
export async function warmUp(): Promise<void> {
  mkdirSync(TEMP_ROOT, { recursive: true });
  const dir = mkdtempSync(path.join(TEMP_ROOT, "warm-"));
  try {
    mkdirSync(path.join(dir, "schemas"));
    const tool = { name: "warm_up", description: "Warms the generator up.", inputSchema: { type: "object", properties: { a: { type: "string" } } } };
    writeFileSync(path.join(dir, "schemas/warm-up.json"), JSON.stringify(tool));
    const set = resolveConfig({ sets: [{ schemas: "schemas", out: "out" }] }, undefined, dir).sets[0]!;
    await generatePackage(set, { allowNetwork: false, strict: false });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The file as the set's schema folder holds it: the document itself, or one tool file per MCP tool. */
function writeSchemas(entry: ManifestEntry, bytes: Buffer, schemas: string): Map<string, Node> {
  const parsed = JSON.parse(bytes.toString("utf8")) as Node;
  if (entry.kind === "openapi") {
    writeFileSync(path.join(schemas, path.basename(entry.file)), bytes);
    return new Map([["", parsed]]);
  }
  // An MCP tool is a tool file (name, description, inputSchema); each in its own file.
  const out = new Map<string, Node>();
  for (const [index, tool] of ((parsed.tools as Node[] | undefined) ?? []).entries()) {
    const file = `${String(index).padStart(3, "0")}.json`;
    const { name, description, inputSchema } = tool;
    writeFileSync(path.join(schemas, file), `${JSON.stringify({ name, description, inputSchema }, null, 2)}\n`);
    out.set(String(name), inputSchema as Node);
  }
  return out;
}

function failed(entry: ManifestEntry, error: unknown, generationMs: number): DocumentResult {
  const base = {
    id: entry.id,
    kind: entry.kind,
    operations: entry.operations,
    tools: 0,
    skips: {},
    generationMs,
    packageBytes: 0,
    toolBytes: 0,
    warnings: 0,
    oracle: emptyOracle(),
  };
  const errors = error instanceof InputErrors ? error.errors : error instanceof InputError ? [error] : undefined;
  if (!errors) return { ...base, status: "internal-error", internalError: String((error as Error)?.stack ?? error).slice(0, 1200) };
  const causes: Record<string, number> = {};
  for (const one of errors) causes[causeOf(one.message)] = (causes[causeOf(one.message)] ?? 0) + 1;
  return { ...base, status: "refused", refusal: { count: errors.length, causes, first: errors.slice(0, KEPT).map((one) => one.format().slice(0, 500)) } };
}

export function emptyOracle(): DocumentResult["oracle"] {
  return {
    instances: 0,
    examples: 0,
    synthesized: 0,
    synthesisMisses: 0,
    unsafeNumbers: 0,
    unjudged: {},
    falseRejections: 0,
    falseRejectionTools: [],
    falseRejectionExamples: [],
    vendorExampleDefects: 0,
    vendorExampleDefectExamples: [],
    unhelpfulEnvelopes: 0,
    notSendable: 0,
    notSendableExamples: [],
    notSendableUnhelpful: 0,
  };
}

/** What to judge for one tool: the judge's validator and the candidate instances with their origin. */
interface ToolCase {
  readonly validate: Validate;
  readonly examples: readonly { where: string; value: unknown }[];
  readonly synthesized: readonly unknown[];
  /** The path arguments of a call that no request can carry (none for an MCP tool). */
  readonly unsendable: (value: unknown) => readonly string[];
}

function openApiCase(document: Node, judge: (schema: object) => Validate, tool: ToolDescription): ToolCase | string {
  const args = operationArguments(document, tool);
  if (typeof args === "string") return args;
  const validate = judge(args.schema);
  const synthesized = everyBranch(
    document,
    (synthesizer: Synthesizer) => {
      const call: Node = {};
      for (const part of args.parts) {
        const value = part.pointer !== undefined ? synthesizer.at(part.pointer) : synthesizer.of(part.schema, `#arg/${part.arg}`);
        if (value !== undefined) call[part.arg] = value;
      }
      return call;
    },
    INSTANCES_PER_TOOL,
  );
  // A vendor example covers some parts (the body, a parameter); the others come from the first
  // synthesized call, so the example is judged as a whole call.
  const filler = (synthesized[0] ?? {}) as Node;
  const examples = args.examples.map(({ where, value }) => ({ where, value: { ...filler, ...(value as Node) } }));
  return { validate, examples, synthesized, unsendable: (value) => unsendablePath(value, args.pathArgs) };
}

function mcpCase(schema: Node): ToolCase {
  const draft07 = typeof schema.$schema === "string" && /draft-0[4-7]/.test(schema.$schema);
  const validate = asWrittenJudge(schema, draft07 ? "draft-07" : "2020-12")({ $ref: "doc#" });
  const examples = Array.isArray(schema.examples) ? schema.examples.map((value, index) => ({ where: `/inputSchema/examples/${index}`, value })) : [];
  const synthesized = everyBranch(schema, (synthesizer) => synthesizer.at(""), INSTANCES_PER_TOOL);
  return { validate, examples, synthesized, unsendable: () => [] };
}

async function judgeTools(
  entry: ManifestEntry,
  documents: Map<string, Node>,
  tools: readonly ToolDescription[],
  imported: Record<string, ToolLike>,
  MemorySink: new () => unknown,
): Promise<DocumentResult["oracle"]> {
  const oracle = {
    ...emptyOracle(),
    unjudged: {} as Record<string, { count: number; example: string }>,
    falseRejectionExamples: [] as FalseRejection[],
    falseRejectionTools: [] as string[],
    vendorExampleDefectExamples: [] as string[],
    notSendableExamples: [] as string[],
  };
  const document = documents.get("");
  const judge = document ? asWrittenJudge(document) : undefined;
  let turn = 0;
  for (const tool of tools) {
    let toolCase: ToolCase | string;
    try {
      toolCase = entry.kind === "openapi" ? openApiCase(document!, judge!, tool) : mcpCase(documents.get(tool.name) ?? {});
    } catch (error) {
      toolCase = `the judge cannot compile the schema as written: ${(error as Error).message}`;
    }
    if (typeof toolCase === "string") {
      const cause = causeOf(toolCase);
      oracle.unjudged[cause] ??= { count: 0, example: `${tool.name}: ${toolCase.slice(0, 300)}` };
      oracle.unjudged[cause].count++;
      continue;
    }
    const definition = imported[tool.name];
    if (!definition) {
      oracle.unjudged["the package has no such tool"] ??= { count: 0, example: tool.name };
      oracle.unjudged["the package has no such tool"].count++;
      continue;
    }
    const guarded = definition.implement(() => null, { ledger: new MemorySink() });
    await guarded.ready();
    // `check` must never throw for anything the model sends; if it does, the throw is what the
    // model would have got instead of an envelope, so it counts as a rejection with that text.
    const check = (value: unknown): ReturnType<GuardedLike["check"]> => {
      try {
        return guarded.check(structuredClone(value), { turn: `corpus-${turn++}` });
      } catch (error) {
        return { ok: false, outcome: { status: `check threw ${String((error as Error)?.message ?? error).slice(0, 200)}` } };
      }
    };
    for (const { where, value } of toolCase.examples) {
      // An integer past 2^53 - 1 in a vendor's example was already changed by JSON.parse; the
      // guard refuses such numbers as lossy, by design (docs/corpus.md). Not judged.
      if (hasUnsafeInteger(value)) {
        oracle.unsafeNumbers++;
        continue;
      }
      oracle.examples++;
      if (!toolCase.validate(value)) {
        oracle.vendorExampleDefects++;
        if (oracle.vendorExampleDefectExamples.length < KEPT)
          oracle.vendorExampleDefectExamples.push(`${tool.name} ${where}: ${shortText(toolCase.validate.errors, 300)}`);
        const result = check(value);
        const errors = result.ok ? [] : (result.outcome?.errors ?? []);
        if (!result.ok && (errors.length === 0 || errors.some((error) => error.path === undefined || !error.rule || !error.message)))
          oracle.unhelpfulEnvelopes++;
        continue;
      }
      if (notSendable(oracle, tool.name, `example ${where}`, value, toolCase.unsendable(value), check)) continue;
      oracle.instances++;
      judgeOne(oracle, tool.name, `example ${where}`, value, check(value));
    }
    for (const value of toolCase.synthesized) {
      if (hasUnsafeInteger(value)) {
        oracle.unsafeNumbers++;
        continue;
      }
      if (!toolCase.validate(value)) {
        oracle.synthesisMisses++;
        continue;
      }
      if (notSendable(oracle, tool.name, "synthesized", value, toolCase.unsendable(value), check)) continue;
      oracle.synthesized++;
      oracle.instances++;
      judgeOne(oracle, tool.name, "synthesized", value, check(value));
    }
  }
  oracle.falseRejectionTools.sort();
  return oracle;
}

/**
 * A call valid as written whose path arguments no request can carry: counted apart, and the
 * guard's envelope must refuse it naming each such argument with a rule and a message (what to
 * send instead). True when the call was such a call.
 */
function notSendable(
  oracle: { notSendable: number; notSendableExamples: string[]; notSendableUnhelpful: number },
  tool: string,
  from: string,
  value: unknown,
  unsendable: readonly string[],
  check: (value: unknown) => ReturnType<GuardedLike["check"]>,
): boolean {
  if (unsendable.length === 0) return false;
  oracle.notSendable++;
  if (oracle.notSendableExamples.length < KEPT) oracle.notSendableExamples.push(`${tool} ${from}: ${shortText(value, 200)}`);
  const result = check(value);
  const errors = result.ok ? [] : (result.outcome?.errors ?? []);
  const says = (arg: string): boolean => errors.some((error) => error.path === `/${arg}` && !!error.rule && !!error.message);
  if (result.ok || !unsendable.every(says)) oracle.notSendableUnhelpful++;
  return true;
}

function hasUnsafeInteger(value: unknown, depth = 0): boolean {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value === null || typeof value !== "object" || depth > 64) return false;
  return Object.values(value).some((item) => hasUnsafeInteger(item, depth + 1));
}

function judgeOne(
  oracle: { falseRejections: number; falseRejectionExamples: FalseRejection[]; falseRejectionTools: string[] },
  tool: string,
  from: string,
  instance: unknown,
  result: ReturnType<GuardedLike["check"]>,
): void {
  if (result.ok) return;
  oracle.falseRejections++;
  if (!oracle.falseRejectionTools.includes(tool)) oracle.falseRejectionTools.push(tool);
  if (oracle.falseRejectionExamples.length >= KEPT) return;
  const errors = (result.outcome?.errors ?? []).slice(0, 4).map((error) => `${error.rule} at ${error.path}: ${(error.message ?? "").slice(0, 160)}`);
  oracle.falseRejectionExamples.push({ tool, from, instance: shortText(instance), errors: errors.length > 0 ? errors : [String(result.outcome?.status)] });
}

/** Strict tsc over the package's declarations and a consumer that imports it. */
function typecheck(dir: string): { ok: boolean; errors: string[] } {
  writeFileSync(path.join(dir, "consumer.ts"), 'import { tools } from "./out/index.js";\nexport const names: string[] = Object.keys(tools);\n');
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2023", noEmit: true, skipLibCheck: false, types: [] },
      include: ["out/**/*.d.ts", "consumer.ts"],
    }),
  );
  try {
    execFileSync(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    return { ok: true, errors: [] };
  } catch (error) {
    const output = String((error as { stdout?: string }).stdout || error);
    return { ok: false, errors: output.split("\n").filter(Boolean).slice(0, KEPT) };
  }
}
