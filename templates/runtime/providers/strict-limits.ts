// OpenAI's size limits for a strict function schema (Structured Outputs, "Supported schemas"):
// a schema over them is refused by the API with a 400 when sent with `strict: true`. So the
// adapters never send one strict (`"auto"` sends it as it is, `true` throws, naming the limit),
// and a set that opts into the OpenAI extras hears of it at generation.
// Measured on the strict variant, the schema the adapters send. The figures are OpenAI's as
// documented when written (they have grown before: 100 properties and 5 levels at first).
import type { InputSchema } from "../contract/tool-spec.ts";

export const OPENAI_STRICT_LIMITS = {
  /** Object properties in the whole schema. */
  properties: 5000,
  /** Levels of object nesting. */
  nesting: 10,
  /** Enum values over every enum in the schema. */
  enumValues: 1000,
  /** One enum of strings with more than `largeEnum` values: their total length. */
  largeEnum: 250,
  largeEnumChars: 15_000,
  /** Property names, definition names, enum and const values, their total length. */
  totalChars: 120_000,
} as const;

/** Each limit the schema goes over, as a sentence naming the limit and the schema's figure. */
export function strictLimitsExceeded(schema: InputSchema): string[] {
  const limits = OPENAI_STRICT_LIMITS;
  const tally = { properties: 0, enumValues: 0, chars: 0, largeEnums: [] as string[] };
  count(schema as Record<string, unknown>, "#", tally);
  const over: string[] = [];
  if (tally.properties > limits.properties) over.push(`${tally.properties} object properties in all (OpenAI's limit: ${limits.properties})`);
  const depth = nesting(schema as Record<string, unknown>, schema as Record<string, unknown>, new Set());
  if (depth > limits.nesting) over.push(`${depth} levels of object nesting (OpenAI's limit: ${limits.nesting})`);
  if (tally.enumValues > limits.enumValues) over.push(`${tally.enumValues} enum values in all (OpenAI's limit: ${limits.enumValues})`);
  for (const at of tally.largeEnums) over.push(at);
  if (tally.chars > limits.totalChars)
    over.push(`${tally.chars} characters of property names, definition names, enum and const values (OpenAI's limit: ${limits.totalChars})`);
  return over;
}

type Tally = { properties: number; enumValues: number; chars: number; largeEnums: string[] };

/** Every node of the schema once, as written (definitions where they are defined). */
function count(node: unknown, at: string, tally: Tally): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) count(item, `${at}/${index}`, tally);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(schema)) {
    if ((key === "properties" || key === "$defs" || key === "definitions") && value && typeof value === "object" && !Array.isArray(value)) {
      const names = Object.keys(value);
      if (key === "properties") tally.properties += names.length;
      tally.chars += names.reduce((sum, name) => sum + name.length, 0);
      for (const name of names) count((value as Record<string, unknown>)[name], `${at}/${key}/${name}`, tally);
    } else if (key === "enum" && Array.isArray(value)) {
      tally.enumValues += value.length;
      const strings = value.filter((item): item is string => typeof item === "string");
      const length = strings.reduce((sum, item) => sum + item.length, 0);
      tally.chars += length;
      const { largeEnum, largeEnumChars } = OPENAI_STRICT_LIMITS;
      if (strings.length > largeEnum && length > largeEnumChars)
        tally.largeEnums.push(
          `${at}/enum: ${strings.length} string values of ${length} characters (OpenAI's limit: ${largeEnumChars} characters for an enum of over ${largeEnum} values)`,
        );
    } else if (key === "const") {
      if (typeof value === "string") tally.chars += value.length;
    } else if (typeof value === "object") count(value, `${at}/${key}`, tally);
  }
}

/** The deepest object nesting, following local `$ref`s (a recursive one counts once). */
function nesting(node: unknown, root: Record<string, unknown>, seen: Set<string>): number {
  if (Array.isArray(node)) return Math.max(0, ...node.map((item) => nesting(item, root, seen)));
  if (node === null || typeof node !== "object") return 0;
  const schema = node as Record<string, unknown>;
  let deepest = 0;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/") && !seen.has(schema.$ref)) {
    const target = schema.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], root);
    deepest = nesting(target, root, new Set([...seen, schema.$ref]));
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$defs" || key === "definitions" || key === "$ref" || key === "enum" || key === "const") continue;
    if (key === "properties" && value && typeof value === "object") {
      deepest = Math.max(deepest, ...Object.values(value).map((child) => nesting(child, root, seen)));
    } else if (typeof value === "object") deepest = Math.max(deepest, nesting(value, root, seen));
  }
  return deepest + (schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object")) ? 1 : 0);
}
