// The shape of every generated tool module. The generator reads this file with ts-morph,
// drops the placeholder import, and substitutes the tool's names and data; the tables stay
// plain data so that a schema change shows up in review as a data change.
import type { ToolDefinition } from "./runtime/contract/api.ts";
import { defineTool } from "./runtime/call/define-tool.ts";
import type { CoercionTable, HazardWalk, HintTable, HttpBinding, InputSchema, ReferenceRewrites, ReferenceTable } from "./runtime/contract/tool-spec.ts";
import {
  TOOL_COERCIONS,
  TOOL_DESCRIPTION,
  TOOL_HAZARD_WALK,
  TOOL_HINTS,
  TOOL_HTTP,
  TOOL_INPUT_SCHEMA,
  TOOL_NAME,
  TOOL_REFERENCES,
  TOOL_REWRITES,
  TOOL_VALIDATOR,
  TOOL_WRITE_ONLY,
  type TOOL_ARGS,
  type TOOL_REFERENCE_KINDS,
  type TOOL_RESOLVED_ARGS,
} from "./tool-placeholders.ts";

// The tables below are data, printed as JSON with one entry per line so that a schema change is
// a minimal diff; prettier leaves them as printed (formatting them was most of generation time).

/** The input schema the model sees. */
// prettier-ignore
const inputSchema: InputSchema = TOOL_INPUT_SCHEMA;

/** Where a string may be strictly coerced, and to what (JSON Pointer patterns, `*` = any index). */
// prettier-ignore
const coercions: CoercionTable = TOOL_COERCIONS;

/** What an error at each schema location can tell the model, precomputed. */
// prettier-ignore
const hints: HintTable = TOOL_HINTS;

/** Fields the model names in words, resolved to identifiers before the implementation runs. */
// prettier-ignore
const references: ReferenceTable = TOOL_REFERENCES;

/**
 * Each reference field's object rebuilt once its identifier is known: without the field, with
 * the identifier in its target, keys in the model's order; the schema's keys are named so the
 * engine reads and stores them directly. Undefined for a tool without reference fields.
 */
const rewrites: ReferenceRewrites | undefined = TOOL_REWRITES;

/**
 * The check for repeated keys, numbers past 2^53, lone surrogates and nesting, run after the
 * validator: it knows each declared property's type and reads a closed object's keys by name.
 * Anything it flags goes to the runtime's full walk. Undefined when the arguments are not a
 * typed object (the runtime's walk serves the tool).
 */
const hazardWalk: HazardWalk | undefined = TOOL_HAZARD_WALK;

/** How the default HTTP dispatcher sends the call, for tools read from OpenAPI. */
// prettier-ignore
const http: HttpBinding | undefined = TOOL_HTTP;

/** The schema's `writeOnly` locations (JSON Pointers, `*` = any token): redacted in the ledger. */
// prettier-ignore
const writeOnly: readonly string[] = TOOL_WRITE_ONLY;

/** TOOL_DESCRIPTION */
export const TOOL_EXPORT: ToolDefinition<TOOL_ARGS, TOOL_RESOLVED_ARGS, TOOL_REFERENCE_KINDS> = defineTool({
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  inputSchema,
  validate: TOOL_VALIDATOR,
  coercions,
  hints,
  references,
  rewrites,
  hazardWalk,
  http,
  writeOnly,
});
