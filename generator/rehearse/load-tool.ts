// One tool through the generator's own tables and validator, bound to a no-op implementation:
// what a generated package's tool does with a call, in process. Beside it, plain ajv for the
// same schema: the baseline whose own messages the literal repairer also reads. `toolguard
// rehearse` and the explain-corpus tests both build their guards here.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildCoercionTable } from "../emit/coercion-table.ts";
import { buildHintTable } from "../emit/error-hints.ts";
import { compileValidator, validatorModule } from "../emit/validator.ts";
import { createAjv } from "../ajv/instances.ts";
import { unknownFormatsOf } from "../read/unknown-formats.ts";
import type { ToolDescription } from "../ir.ts";
import { defineTool } from "../../templates/runtime/call/define-tool.ts";
import type { InputSchema, StandaloneValidator } from "../../templates/runtime/contract/tool-spec.ts";
import type { LedgerSink } from "../../templates/runtime/contract/ledger-entry.ts";
import { MemorySink } from "../../templates/runtime/ledger/ledger-memory.ts";
import type { EnvelopeError } from "./literal-repairer.ts";

const RUNTIME = path.resolve(import.meta.dirname, "../../templates/runtime");
// The runtime as this file runs: its TypeScript sources in a checkout, the built .js in dist/.
const RUNTIME_EXT = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
// The compiled validator modules are written to files so that Node imports them as ES modules.
let dir: string | undefined;
let count = 0;

/** Deletes the validator modules written so far (the guards already loaded keep working). */
export function removeLoadedModules(): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

export interface LoadedTool {
  readonly description: ToolDescription;
  readonly validate: StandaloneValidator;
  /** The guard's envelope errors for `args`, or undefined when the call is accepted. */
  envelope(args: unknown): Promise<readonly EnvelopeError[] | undefined>;
  /** The same for a call sent as this text (which need not be JSON). */
  envelopeOfText(text: string): Promise<readonly EnvelopeError[] | undefined>;
  /** Plain ajv's errors for `args` as an envelope would carry them, or undefined when valid. */
  ajvErrors(args: unknown): readonly EnvelopeError[] | undefined;
}

/** `ledger`: where the tool's entries go (an in-memory sink by default), for a test that reads its lines. */
export async function loadTool(description: ToolDescription, options: { readonly ledger?: LedgerSink } = {}): Promise<LoadedTool> {
  const code = validatorModule(compileValidator(description));
  dir ??= mkdtempSync(path.join(tmpdir(), "toolguard-rehearse-"));
  const file = path.join(dir, `t${count++}.mjs`);
  writeFileSync(
    file,
    code.replace(
      /from "\.\.\/runtime\/([\w/-]+)\.js"/g,
      (_w, name: string) => `from ${JSON.stringify(pathToFileURL(path.join(RUNTIME, `${name}${RUNTIME_EXT}`)).href)}`,
    ),
  );
  const validate = ((await import(pathToFileURL(file).href)) as { default: StandaloneValidator }).default;
  const hints = buildHintTable(description);
  const guarded = defineTool({
    name: description.name,
    description: description.description,
    inputSchema: description.inputSchema as InputSchema,
    validate,
    coercions: buildCoercionTable(description),
    hints,
    references: {},
  }).implement(() => "ok", { ledger: options.ledger ?? new MemorySink() });
  // A format toolguard does not know is an annotation here too, as in the generated validator
  // (emit/validator.ts): plain ajv refused to compile it, and one such tool (Mapbox's devkit
  // server writes `format: "starts_with"`) ended the whole rehearsal with an internal error.
  const ajv = createAjv(description.dialect);
  for (const { format } of unknownFormatsOf(description.inputSchema)) ajv.addFormat(format, true);
  const plain = ajv.compile(description.inputSchema as object);
  let turn = 0;
  const envelopeOfText = async (text: string): Promise<readonly EnvelopeError[] | undefined> => {
    const outcome = await guarded.call(text, { turn: `corpus-${turn++}` });
    if (outcome.status === "ok") return undefined;
    if (outcome.status !== "validation_failed") throw new Error(`${description.name}: unexpected ${outcome.status}`);
    return outcome.errors;
  };
  return {
    description,
    validate,
    envelope: (args) => envelopeOfText(JSON.stringify(args)),
    envelopeOfText,
    ajvErrors(args) {
      if (plain(args)) return undefined;
      return (plain.errors ?? []).map((error) => ({ path: error.instancePath, rule: error.keyword, message: error.message ?? "" }));
    },
  };
}
