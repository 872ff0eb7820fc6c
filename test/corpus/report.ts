// The corpus report: the figures docs/corpus.md quotes, as JSON (report.json) and as a page a
// person reads (report.md), from every document's result.
import type { DocumentResult } from "./judge-document.ts";
import type { Manifest } from "./manifest.ts";

export type RunResult = DocumentResult | { readonly id: string; readonly harnessError: string };

export interface CorpusReport {
  readonly manifest: { readonly documents: number; readonly vendors: number; readonly mcpServers: number };
  readonly run: { readonly entries: number; readonly workers: number; readonly typecheck: boolean; readonly wallSeconds: number };
  readonly documents: {
    readonly judged: number;
    readonly generated: number;
    readonly refused: number;
    readonly internalErrors: number;
    readonly zeroTools: number;
  };
  readonly operations: number;
  readonly tools: number;
  readonly skipped: number;
  readonly skipsByCause: Readonly<Record<string, { readonly count: number; readonly documents: number; readonly example: string }>>;
  readonly refusalsByCause: Readonly<Record<string, { readonly documents: number; readonly example: string }>>;
  readonly internalErrors: readonly { readonly id: string; readonly error: string }[];
  readonly oracle: {
    readonly instances: number;
    readonly examples: number;
    readonly synthesized: number;
    readonly synthesisMisses: number;
    readonly unsafeNumbers: number;
    readonly falseRejections: number;
    readonly falseRejectionDocuments: number;
    readonly falseRejectionExamples: readonly {
      readonly id: string;
      readonly tool: string;
      readonly from: string;
      readonly instance: string;
      readonly errors: readonly string[];
    }[];
    readonly vendorExampleDefects: number;
    readonly unhelpfulEnvelopes: number;
    /** Calls valid as written that no request can carry (a null or empty path argument), counted apart. */
    readonly notSendable: number;
    readonly notSendableDocuments: number;
    /** Of those, the ones whose envelope does not name the path argument with a rule and a message. */
    readonly notSendableUnhelpful: number;
    readonly notSendableExamples: readonly string[];
    readonly unjudgedTools: number;
    readonly unjudgedByCause: Readonly<Record<string, { readonly count: number; readonly example: string }>>;
  };
  readonly typecheck: { readonly checked: number; readonly failed: readonly { readonly id: string; readonly errors: readonly string[] }[] };
  readonly importErrors: readonly { readonly id: string; readonly error: string }[];
  readonly harnessErrors: readonly { readonly id: string; readonly error: string }[];
  /** Generation wall time per tool, per document (ms): median and 99th percentile over documents with tools. */
  readonly generationMsPerTool: { readonly median: number; readonly p99: number; readonly totalSeconds: number };
  /** Bytes of tools/ per tool (the per-tool part of a package), and whole package bytes per tool. */
  readonly bytesPerTool: { readonly median: number; readonly p99: number; readonly packageMedian: number };
  /** Peak resident memory of the judging process (MB): the largest, and median over the documents of 400 operations or more (each in a process of its own). */
  readonly peakRssMb: { readonly max: number; readonly maxId: string; readonly largeMedian: number; readonly largeDocuments: number };
  readonly largestPackages: readonly { readonly id: string; readonly tools: number; readonly megabytes: number }[];
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

export function buildReport(manifest: Manifest, results: readonly RunResult[], run: CorpusReport["run"]): CorpusReport {
  const judged = results.filter((result): result is DocumentResult => !("harnessError" in result));
  const harnessErrors = results
    .filter((result) => "harnessError" in result)
    .map((result) => ({ id: result.id, error: (result as { harnessError: string }).harnessError }));
  const skipsByCause: Record<string, { count: number; documents: number; example: string }> = {};
  const refusalsByCause: Record<string, { documents: number; example: string }> = {};
  const unjudgedByCause: Record<string, { count: number; example: string }> = {};
  const falseRejectionExamples: CorpusReport["oracle"]["falseRejectionExamples"][number][] = [];
  const notSendableExamples: string[] = [];
  for (const result of judged) {
    for (const [cause, { count, example }] of Object.entries(result.skips)) {
      skipsByCause[cause] ??= { count: 0, documents: 0, example: `${result.id}: ${example}` };
      skipsByCause[cause].count += count;
      skipsByCause[cause].documents++;
    }
    for (const cause of Object.keys(result.refusal?.causes ?? {})) {
      refusalsByCause[cause] ??= { documents: 0, example: `${result.id}: ${result.refusal!.first[0] ?? ""}` };
      refusalsByCause[cause].documents++;
    }
    for (const [cause, { count, example }] of Object.entries(result.oracle.unjudged)) {
      unjudgedByCause[cause] ??= { count: 0, example: `${result.id}: ${example}` };
      unjudgedByCause[cause].count += count;
    }
    for (const example of (result.oracle.notSendableExamples ?? []).slice(0, 1))
      if (notSendableExamples.length < 20) notSendableExamples.push(`${result.id} ${example}`);
    for (const example of result.oracle.falseRejectionExamples.slice(0, 2))
      if (falseRejectionExamples.length < 60) falseRejectionExamples.push({ id: result.id, ...example });
  }
  const sum = (pick: (result: DocumentResult) => number): number => judged.reduce((total, result) => total + pick(result), 0);
  const withTools = judged.filter((result) => result.tools > 0);
  const typechecked = judged.filter((result) => result.typecheck);
  const sortCauses = <T extends { count?: number; documents: number } | { count: number }>(record: Record<string, T>): Record<string, T> =>
    Object.fromEntries(Object.entries(record).sort(([a, x], [b, y]) => ("count" in y ? y.count! : 0) - ("count" in x ? x.count! : 0) || (a < b ? -1 : 1)));
  return {
    manifest: { documents: manifest.documents, vendors: manifest.vendors, mcpServers: manifest.mcpServers },
    run,
    documents: {
      judged: judged.length,
      generated: judged.filter((result) => result.status === "generated").length,
      refused: judged.filter((result) => result.status === "refused").length,
      internalErrors: judged.filter((result) => result.status === "internal-error").length,
      zeroTools: judged.filter((result) => result.status === "generated" && result.tools === 0).length,
    },
    operations: sum((result) => result.operations),
    tools: sum((result) => result.tools),
    skipped: sum((result) => Object.values(result.skips).reduce((total, skip) => total + skip.count, 0)),
    skipsByCause: sortCauses(skipsByCause),
    refusalsByCause: Object.fromEntries(Object.entries(refusalsByCause).sort(([a, x], [b, y]) => y.documents - x.documents || (a < b ? -1 : 1))),
    internalErrors: judged
      .filter((result) => result.internalError)
      .map((result) => ({ id: result.id, error: result.internalError!.split("\n").slice(0, 4).join("\n") })),
    oracle: {
      instances: sum((result) => result.oracle.instances),
      examples: sum((result) => result.oracle.examples),
      synthesized: sum((result) => result.oracle.synthesized),
      synthesisMisses: sum((result) => result.oracle.synthesisMisses),
      unsafeNumbers: sum((result) => result.oracle.unsafeNumbers ?? 0),
      falseRejections: sum((result) => result.oracle.falseRejections),
      falseRejectionDocuments: judged.filter((result) => result.oracle.falseRejections > 0).length,
      falseRejectionExamples,
      vendorExampleDefects: sum((result) => result.oracle.vendorExampleDefects),
      unhelpfulEnvelopes: sum((result) => result.oracle.unhelpfulEnvelopes),
      notSendable: sum((result) => result.oracle.notSendable ?? 0),
      notSendableDocuments: judged.filter((result) => (result.oracle.notSendable ?? 0) > 0).length,
      notSendableUnhelpful: sum((result) => result.oracle.notSendableUnhelpful ?? 0),
      notSendableExamples,
      unjudgedTools: Object.values(unjudgedByCause).reduce((total, cause) => total + cause.count, 0),
      unjudgedByCause: sortCauses(unjudgedByCause),
    },
    typecheck: {
      checked: typechecked.length,
      failed: typechecked.filter((result) => !result.typecheck!.ok).map((result) => ({ id: result.id, errors: result.typecheck!.errors })),
    },
    importErrors: judged.filter((result) => result.importError).map((result) => ({ id: result.id, error: result.importError!.split("\n")[0]! })),
    harnessErrors,
    generationMsPerTool: {
      median: round(
        percentile(
          withTools.map((result) => result.generationMs / result.tools),
          50,
        ),
      ),
      p99: round(
        percentile(
          withTools.map((result) => result.generationMs / result.tools),
          99,
        ),
      ),
      totalSeconds: round(sum((result) => result.generationMs) / 1000),
    },
    bytesPerTool: {
      median: Math.round(
        percentile(
          withTools.map((result) => result.toolBytes / result.tools),
          50,
        ),
      ),
      p99: Math.round(
        percentile(
          withTools.map((result) => result.toolBytes / result.tools),
          99,
        ),
      ),
      packageMedian: Math.round(
        percentile(
          withTools.map((result) => result.packageBytes / result.tools),
          50,
        ),
      ),
    },
    peakRssMb: peakMemory(judged),
    largestPackages: [...withTools]
      .sort((a, b) => b.packageBytes - a.packageBytes)
      .slice(0, 5)
      .map((result) => ({ id: result.id, tools: result.tools, megabytes: round(result.packageBytes / 1e6) })),
  };
}

/** Threshold of run.ts's LARGE: such a document is judged in a process of its own. */
const OWN_PROCESS = 400;

function peakMemory(judged: readonly DocumentResult[]): CorpusReport["peakRssMb"] {
  const measured = judged.filter((result) => result.peakRssMb !== undefined);
  const top = measured.reduce<DocumentResult | undefined>((best, result) => (best && best.peakRssMb! >= result.peakRssMb! ? best : result), undefined);
  const large = measured.filter((result) => result.operations >= OWN_PROCESS);
  return {
    max: top?.peakRssMb ?? 0,
    maxId: top?.id ?? "",
    largeMedian: percentile(
      large.map((result) => result.peakRssMb!),
      50,
    ),
    largeDocuments: large.length,
  };
}

/** The readable summary. */
export function formatReport(report: CorpusReport): string {
  const lines: string[] = [];
  const n = (value: number): string => value.toLocaleString("en-US");
  lines.push("# toolguard corpus report", "");
  lines.push(
    `Corpus: ${n(report.manifest.documents)} API descriptions from ${n(report.manifest.vendors)} vendors, ${n(report.manifest.mcpServers)} MCP servers' tool lists (test/corpus/manifest.json).`,
  );
  lines.push(
    `This run: ${n(report.run.entries)} entries, ${report.run.workers} workers, typecheck ${report.run.typecheck ? "on" : "off"}, ${n(Math.round(report.run.wallSeconds))} s.`,
    "",
  );
  lines.push("| figure | value |", "| --- | --- |");
  const rows: [string, string][] = [
    ["documents judged", n(report.documents.judged)],
    [
      "generated / refused whole / internal errors",
      `${n(report.documents.generated)} / ${n(report.documents.refused)} / ${n(report.documents.internalErrors)}`,
    ],
    ["documents that gave 0 tools (exit 0)", n(report.documents.zeroTools)],
    ["operations (OpenAPI) and MCP tools in the judged entries", n(report.operations)],
    ["tools generated", n(report.tools)],
    ["operations skipped", n(report.skipped)],
    [
      "instances judged (valid as written)",
      `${n(report.oracle.instances)} (${n(report.oracle.examples)} vendor examples, ${n(report.oracle.synthesized)} synthesized)`,
    ],
    ["false rejections", `${n(report.oracle.falseRejections)} in ${n(report.oracle.falseRejectionDocuments)} documents`],
    ["vendor examples their own schema refuses (counted apart)", n(report.oracle.vendorExampleDefects)],
    ["  of which the envelope does not say what to send", n(report.oracle.unhelpfulEnvelopes)],
    [
      "calls valid as written but not sendable (a null or empty path argument; counted apart)",
      `${n(report.oracle.notSendable)} in ${n(report.oracle.notSendableDocuments)} documents; envelope does not say what to send: ${n(report.oracle.notSendableUnhelpful)}`,
    ],
    ["synthesized instances the schema as written refuses (not used)", n(report.oracle.synthesisMisses)],
    ["instances with an integer past 2^53 - 1 (not judged: JSON.parse already changed them)", n(report.oracle.unsafeNumbers)],
    ["tools the judge could not map", n(report.oracle.unjudgedTools)],
    ["packages type-checked / failing", `${n(report.typecheck.checked)} / ${n(report.typecheck.failed.length)}`],
    ["packages that do not import", n(report.importErrors.length)],
    ["harness errors", n(report.harnessErrors.length)],
    ["generation ms per tool, median / p99 (per document)", `${report.generationMsPerTool.median} / ${report.generationMsPerTool.p99}`],
    [
      "tool-module bytes per tool, median / p99; package bytes per tool, median",
      `${n(report.bytesPerTool.median)} / ${n(report.bytesPerTool.p99)}; ${n(report.bytesPerTool.packageMedian)}`,
    ],
    [
      "peak RSS of the judging process, MB: largest; median over documents of 400+ operations (own process)",
      `${n(report.peakRssMb.max)} (${report.peakRssMb.maxId}); ${n(report.peakRssMb.largeMedian)} over ${n(report.peakRssMb.largeDocuments)}`,
    ],
  ];
  for (const [name, value] of rows) lines.push(`| ${name} | ${value} |`);
  const section = (title: string, entries: [string, string][]): void => {
    if (entries.length === 0) return;
    lines.push("", `## ${title}`, "");
    for (const [head, body] of entries) lines.push(`- ${head}`, `  ${body.replaceAll("\n", "\n  ")}`);
  };
  section(
    "Skips by cause",
    Object.entries(report.skipsByCause).map(([cause, skip]) => [
      `${n(skip.count)} in ${n(skip.documents)} documents: ${cause}`,
      `e.g. ${skip.example.slice(0, 300)}`,
    ]),
  );
  section(
    "Documents refused whole, by cause",
    Object.entries(report.refusalsByCause).map(([cause, refusal]) => [`${n(refusal.documents)} documents: ${cause}`, `e.g. ${refusal.example.slice(0, 400)}`]),
  );
  section(
    "Internal errors",
    report.internalErrors.map((error) => [error.id, error.error]),
  );
  section(
    "False rejections (examples)",
    report.oracle.falseRejectionExamples.map((example) => [
      `${example.id} ${example.tool} (${example.from})`,
      `${example.instance}\n-> ${example.errors.join("; ")}`,
    ]),
  );
  section(
    "Calls valid as written but not sendable (examples)",
    report.oracle.notSendableExamples.map((example) => [example.split(" ")[0]!, example.slice(example.indexOf(" ") + 1)]),
  );
  section(
    "Tools the judge could not map",
    Object.entries(report.oracle.unjudgedByCause).map(([cause, value]) => [`${n(value.count)}: ${cause}`, `e.g. ${value.example}`]),
  );
  section(
    "Type-check failures",
    report.typecheck.failed.map((failure) => [failure.id, failure.errors.join("\n")]),
  );
  section(
    "Import errors",
    report.importErrors.map((error) => [error.id, error.error]),
  );
  section(
    "Harness errors",
    report.harnessErrors.map((error) => [error.id, error.error.split("\n").slice(0, 3).join("\n")]),
  );
  section(
    "Largest packages",
    report.largestPackages.map((entry) => [entry.id, `${entry.megabytes} MB for ${n(entry.tools)} tools`]),
  );
  return `${lines.join("\n")}\n`;
}
