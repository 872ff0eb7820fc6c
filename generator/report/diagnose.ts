// What a pattern of failures says about a schema, and the change to make at the place it names.
// One diagnosis per rule family, in the brief's terms: wrong enum members want aliases or a
// legible allowed set, missing required fields question the field, truncation says split the
// tool, constant referential failures say switch to a reference. A finding is made only where
// the failures cross the brief's first band (1 failed call in 100 of the tool's calls).
import { decodeToken, pointerToken, resolvePointer } from "../json-pointer.ts";
import type { ToolSchemaFile } from "./schema-files.ts";

/** Below this share of failed calls a tool is healthy; above `DEFECT_RATE` its schema needs work. */
export const HEALTHY_RATE = 0.01;
export const DEFECT_RATE = 0.05;

export type Severity = "watch" | "schema defect";

/** A value models sent at a location, and how many calls sent it. */
export interface OffendingValue {
  readonly value: string;
  readonly calls: number;
  /** For an enum: the allowed value the guard suggested instead (what an alias would map it to). */
  readonly meant?: string;
}

/** Where to make the change: the tool's schema file (when found) and the pointer into it. */
export interface SchemaLocation {
  readonly tool: string;
  /** The schema file, relative to the working directory; absent when no file names the tool. */
  readonly file?: string;
  /** The failing place in the arguments (array indices as `*`). */
  readonly argumentPointer: string;
  /** The same place in the tool file: `/inputSchema/properties/...`, or `/description`. */
  readonly schemaPointer: string;
}

export interface Finding {
  readonly tool: string;
  readonly rule: string;
  readonly kind: DiagnosisKind;
  readonly severity: Severity;
  readonly failedCalls: number;
  readonly perThousand: number;
  /** The brief's bands, per 1000 calls: under `healthy` is healthy, over `defect` a schema defect. */
  readonly threshold: { readonly healthy: number; readonly defect: number };
  readonly diagnosis: string;
  /** The concrete change, at `location`. */
  readonly change: string;
  readonly location: SchemaLocation;
  /** The values sent most often at the location (alias candidates for an enum), most first. */
  readonly topValues: readonly OffendingValue[];
}

export type DiagnosisKind =
  | "alias_or_describe_enum"
  | "state_constant"
  | "optional_or_rename"
  | "split_tool"
  | "switch_to_reference"
  | "offer_candidates"
  | "specific_reference"
  | "name_unknown_field"
  | "state_type"
  | "state_format"
  | "state_pattern"
  | "state_bound"
  | "bare_json"
  | "json_syntax"
  | "read_the_ledger";

const BOUNDS: ReadonlySet<string> = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
]);
const JSON_SYNTAX: ReadonlySet<string> = new Set(["single_quotes", "trailing_comma", "comment", "invalid_json"]);
/** Syntactic rules are about the whole text, so their change is made at the tool's description. */
const WHOLE_TEXT: ReadonlySet<string> = new Set(["truncated", "code_fence", "text_around_json", ...JSON_SYNTAX]);

/** What to say and change for one rule at one location. */
export function diagnose(
  location: { readonly rule: string; readonly pointer: string },
  top: readonly OffendingValue[],
  longestRaw: number,
): Pick<Finding, "kind" | "diagnosis" | "change"> {
  const { rule, pointer } = location;
  const field = pointer === "" ? "the arguments" : `\`${pointer}\``;
  const sent =
    top.length === 0
      ? ""
      : ` Sent instead: ${top
          .slice(0, 5)
          .map((value) => `${value.value} (${value.calls})`)
          .join(", ")}.`;
  if (rule === "enum")
    return {
      kind: "alias_or_describe_enum",
      diagnosis: `models send values outside the allowed set at ${field}: the set is not legible, or its values are not the ones models reach for.${sent}`,
      change:
        top.length > 0
          ? `add ${top[0]?.value} as an alias of ${top[0]?.meant ?? "the member it means"} (or list each member with what it means in the description), at this pointer`
          : "describe each allowed value in the description, at this pointer",
    };
  if (rule === "const")
    return {
      kind: "state_constant",
      diagnosis: `models send another value than the constant at ${field}.${sent}`,
      change: "state the expected value in the description",
    };
  if (rule === "required")
    return {
      kind: "optional_or_rename",
      diagnosis: `models omit ${field}: they do not know its value or do not recognise the name`,
      change: "make the field optional (with a default the implementation fills in), or rename it to what the user says and describe it",
    };
  if (rule === "truncated")
    return {
      kind: "split_tool",
      diagnosis: `the arguments are cut off by the output budget (the longest cut-off text: ${longestRaw} characters): the argument surface is too large`,
      change: "split the tool (one call per item or per part), or bound the large arrays and strings with maxItems/maxLength",
    };
  if (rule === "reference_not_found")
    return {
      kind: "switch_to_reference",
      diagnosis: `models send names or identifiers at ${field} that match nothing: they cannot know the value.${sent}`,
      change: "switch the field to a reference the model can name (x-toolguard-reference with a resolver), or offer the candidates in the prompt",
    };
  if (rule === "reference_not_offered")
    return {
      kind: "offer_candidates",
      diagnosis: `models invent identifiers at ${field} instead of choosing one offered.${sent}`,
      change: "keep the model choosing from offered candidates: list them in the description or switch the field to a reference",
    };
  if (rule === "ambiguous_reference")
    return {
      kind: "specific_reference",
      diagnosis: `the reference at ${field} matches several things and the guard has to ask: names collide`,
      change: "ask for a more specific reference in the description (a billing email rather than a company name)",
    };
  if (rule === "additionalProperties")
    return {
      kind: "name_unknown_field",
      diagnosis: `models send fields the schema does not have.${sent}`,
      change:
        top.length > 0
          ? `add ${top[0]?.value} as a field (or an alias of the field it means), or describe the object's fields better`
          : "describe the object's fields better",
    };
  if (rule === "type")
    return {
      kind: "state_type",
      diagnosis: `models send the wrong type at ${field}.${sent}`,
      change: "say the type in the description and give an example value",
    };
  if (rule === "format")
    return {
      kind: "state_format",
      diagnosis: `models send another format at ${field}.${sent}`,
      change: "give an example of the format in the description (2026-01-31, not 31/01/2026)",
    };
  if (rule === "pattern")
    return {
      kind: "state_pattern",
      diagnosis: `values at ${field} do not match the pattern.${sent}`,
      change: "give an example that matches in the description, and say the pattern in words",
    };
  if (BOUNDS.has(rule))
    return {
      kind: "state_bound",
      diagnosis: `values at ${field} break the \`${rule}\` bound: models do not see the limit.${sent}`,
      change: `state the bound (${rule}) in the description in words, with an example inside it; if real values exceed it, widen it`,
    };
  if (rule === "code_fence" || rule === "text_around_json")
    return {
      kind: "bare_json",
      diagnosis:
        rule === "code_fence"
          ? "models wrap the arguments in a Markdown code fence: they answer as if writing prose"
          : "models write text around the JSON arguments",
      change: "say in the tool description that the arguments are a bare JSON object; if the provider supports it, turn on strict/structured tool calls",
    };
  if (JSON_SYNTAX.has(rule))
    return {
      kind: "json_syntax",
      diagnosis: `models write invalid JSON (${rule}): usually a model without structured output, or a prompt showing JavaScript-style examples`,
      change: "turn on strict/structured tool calls for this tool, and make every example in the description strict JSON",
    };
  return { kind: "read_the_ledger", diagnosis: `\`${rule}\` fails at ${field}`, change: "read the failing messages in the ledger for this pointer" };
}

/**
 * The place in the tool file for a rule at an argument pointer: the property's schema, local
 * `$ref`s followed (so `/line_items/*\/sku` is `/inputSchema/$defs/line_item/properties/sku`),
 * or the tool's description for rules about the whole text. Without the file, the pointer the
 * plain nesting gives (`/properties/line_items/items/properties/sku`).
 */
export function schemaPointerOf(rule: string, argumentPointer: string, schema?: ToolSchemaFile): string {
  if (WHOLE_TEXT.has(rule)) return schema?.descriptionAt ?? "/description";
  // An unknown key is reported at the key; the change is made at the object that lacks it.
  const pointer = rule === "additionalProperties" ? argumentPointer.slice(0, argumentPointer.lastIndexOf("/")) : argumentPointer;
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/").map(decodeToken);
  const root = schema?.schemaAt ?? "/inputSchema";
  let at = root;
  for (const token of tokens) {
    if (schema) at = followRefs(schema, root, at);
    at += token === "*" || /^\d+$/.test(token) ? "/items" : `/properties/${pointerToken(token)}`;
  }
  return schema ? followRefs(schema, root, at) : at;
}

/** `at` with its local `$ref`s followed (at most 32: a cycle of references ends). */
function followRefs(schema: ToolSchemaFile, root: string, at: string): string {
  for (let hops = 0; hops < 32; hops++) {
    const node = resolvePointer(schema.document, at) as { $ref?: unknown } | undefined;
    const ref = node !== null && typeof node === "object" ? node.$ref : undefined;
    if (typeof ref !== "string" || !ref.startsWith("#")) return at;
    const target = `${root}${decodeURIComponent(ref.slice(1))}`;
    if (resolvePointer(schema.document, target) === undefined) return at;
    at = target;
  }
  return at;
}
