// Reading a tool's input schema the way the mistake generator needs: through local `$ref`s, with
// its JSON types listed. The generator never relies on toolguard's own readers, so a defect there
// cannot hide itself.

export type Schema = Record<string, unknown>;

export function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `schema` with its local `$ref` chain followed (at most 16 hops), or undefined. */
export function deref(schema: unknown, root: Schema): Schema | undefined {
  let node = schema;
  for (let hops = 0; hops < 16 && isSchema(node) && typeof node.$ref === "string"; hops++) {
    const ref = node.$ref as string;
    if (!ref.startsWith("#")) return undefined;
    node = ref
      .slice(1)
      .split("/")
      .slice(1)
      .reduce<unknown>((at, token) => (isSchema(at) ? at[token.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined), root);
  }
  return isSchema(node) ? node : undefined;
}

export function typesOf(schema: Schema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  if (isSchema(schema.properties)) return ["object"];
  if (schema.items !== undefined) return ["array"];
  return [];
}

export function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
}

export function propertiesOf(schema: Schema): Record<string, unknown> {
  return isSchema(schema.properties) ? schema.properties : {};
}

/** Whether the object refuses names it does not declare. */
export function closed(schema: Schema): boolean {
  return schema.additionalProperties === false || schema.unevaluatedProperties === false;
}

export const pointer = (tokens: readonly string[]): string => tokens.map((token) => `/${token.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
