// Valid calls for every branch of every discriminated union a real description's request bodies
// use, built from the description as written: OpenAI's unions are `oneOf`s whose object branches
// each say their own value for one property (`role: {enum: [user]}`, `type: {enum: [text]}`),
// with no `discriminator` keyword or one without `mapping`. Instances come from each schema's
// const/enum, default or example, else the least value its keywords allow.

type Schema = Record<string, unknown>;

/** A step from one instance position to the next: a property, the first item, or the branch chosen there. */
export type Step = string | 0 | { readonly via: string };

/** A union whose branches each assert their own values for `property`. */
export interface Union {
  readonly pointer: string;
  readonly property: string;
  /** Document pointers of the branches. */
  readonly branches: readonly string[];
}

export function at(document: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((node, token) => (node as Schema | undefined)?.[token.replaceAll("~1", "/").replaceAll("~0", "~")], document);
}

const token = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** The pointer a schema's `$ref` chain ends at. */
function target(document: unknown, pointer: string): string {
  for (let depth = 0; depth < 16; depth++) {
    const ref = (at(document, pointer) as Schema | undefined)?.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) return pointer;
    pointer = decodeURIComponent(ref.slice(1));
  }
  return pointer;
}

/** A schema with its `allOf` members' properties and `required` merged in (one level). */
function effective(document: unknown, pointer: string): Schema {
  const schema = (at(document, target(document, pointer)) ?? {}) as Schema;
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: Schema = { ...schema, properties: { ...(schema.properties as Schema) }, required: [...((schema.required as string[]) ?? [])] };
  schema.allOf.forEach((_, index) => {
    const member = effective(document, `${target(document, pointer)}/allOf/${index}`);
    Object.assign(merged.properties as Schema, member.properties);
    (merged.required as string[]).push(...((member.required as string[]) ?? []));
    merged.type ??= member.type;
  });
  return merged;
}

function propertyPointer(document: unknown, pointer: string, name: string): string | undefined {
  const direct = target(document, pointer);
  const schema = at(document, direct) as Schema;
  if ((schema.properties as Schema | undefined)?.[name] !== undefined) return `${direct}/properties/${token(name)}`;
  for (const [index] of ((schema.allOf as unknown[]) ?? []).entries()) {
    const found = propertyPointer(document, `${direct}/allOf/${index}`, name);
    if (found) return found;
  }
  return undefined;
}

/** The values a branch asserts for a property (const or enum), through $refs. */
function ownValues(document: unknown, branch: string, property: string): unknown[] | undefined {
  const pointer = propertyPointer(document, branch, property);
  if (!pointer) return undefined;
  const schema = at(document, target(document, pointer)) as Schema;
  if (schema.const !== undefined) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

const unionKey = (schema: Schema): "oneOf" | "anyOf" | undefined => (Array.isArray(schema.oneOf) ? "oneOf" : Array.isArray(schema.anyOf) ? "anyOf" : undefined);

/** The union at a pointer, if its branches all assert disjoint values for one property. */
export function unionAt(document: unknown, pointer: string): Union | undefined {
  const schema = at(document, pointer) as Schema;
  const key = unionKey(schema);
  if (!key) return undefined;
  const branches = (schema[key] as unknown[]).map((_, index) => target(document, `${pointer}/${key}/${index}`));
  if (branches.length < 2) return undefined;
  const declared = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
  const candidates = declared ? [declared] : Object.keys(effective(document, branches[0]!).properties ?? {});
  for (const property of candidates) {
    const values = branches.map((branch) => ownValues(document, branch, property));
    const flat = values.flat();
    if (values.every((list) => list !== undefined && list.length > 0) && new Set(flat).size === flat.length) return { pointer, property, branches };
  }
  return undefined;
}

/** Every union reachable from a request body, with the steps from the body to it. */
export function unionsUnder(document: unknown, body: string): { readonly steps: readonly Step[]; readonly union: Union }[] {
  const found: { steps: Step[]; union: Union }[] = [];
  const walk = (pointer: string, steps: Step[], stack: readonly string[]): void => {
    const here = target(document, pointer);
    if (stack.includes(here) || steps.length > 12) return;
    const inner = [...stack, here];
    const schema = (at(document, here) ?? {}) as Schema;
    const union = unionAt(document, here);
    if (union) found.push({ steps, union });
    const key = unionKey(schema);
    for (const [index] of key ? (schema[key] as unknown[]).entries() : [])
      walk(`${here}/${key}/${index}`, [...steps, { via: `${here}/${key}/${index}` }], inner);
    for (const [index] of ((schema.allOf as unknown[]) ?? []).entries()) walk(`${here}/allOf/${index}`, steps, inner);
    for (const name of Object.keys((schema.properties as Schema) ?? {})) walk(`${here}/properties/${token(name)}`, [...steps, name], inner);
    if (schema.items && typeof schema.items === "object") walk(`${here}/items`, [...steps, 0], inner);
  };
  walk(body, [], []);
  return found;
}

/** An instance of the schema at `pointer`, following `steps` (and building what they pass through). */
export function sample(document: unknown, pointer: string, steps: readonly Step[] = [], depth = 0): unknown {
  const schema = effective(document, pointer);
  const [step, ...rest] = steps;
  if (step !== undefined && typeof step === "object") return sample(document, step.via, rest, depth + 1);
  if (step === undefined) {
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
    if (schema.default !== undefined && schema.default !== null) return schema.default;
    if (schema.example !== undefined && schema.example !== null) return schema.example;
  }
  const key = unionKey(schema);
  const types = [schema.type].flat().filter((type) => type !== undefined && type !== "null");
  if (key && types.length === 0) {
    // Along the steps: the branch that has the next property (or items); else the first non-null one.
    const options = (schema[key] as unknown[]).map((_, index) => `${target(document, pointer)}/${key}/${index}`);
    const fits = (option: string): boolean => {
      const branch = effective(document, option);
      if (step === 0) return branch.type === "array" || branch.items !== undefined;
      if (typeof step === "string") return propertyPointer(document, option, step) !== undefined;
      return branch.type !== "null";
    };
    return sample(document, options.find(fits) ?? options[0]!, steps, depth + 1);
  }
  if (depth > 24) return undefined;
  const type = types[0] ?? (schema.properties || typeof step === "string" ? "object" : schema.items || step === 0 ? "array" : "string");
  if (type === "array") {
    const items = `${target(document, pointer)}/items`;
    const first = sample(document, items, step === 0 ? rest : [], depth + 1);
    const count = Math.max(1, (schema.minItems as number | undefined) ?? 0);
    return [first, ...Array.from({ length: count - 1 }, () => sample(document, items, [], depth + 1))];
  }
  if (type === "object") {
    const out: Schema = {};
    for (const name of (schema.required as string[] | undefined) ?? []) {
      const property = propertyPointer(document, pointer, name);
      out[name] = property ? sample(document, property, [], depth + 1) : "x";
    }
    if (typeof step === "string") {
      const property = propertyPointer(document, pointer, step) ?? `${target(document, pointer)}/additionalProperties`;
      out[step] = sample(document, property, rest, depth + 1);
    }
    return out;
  }
  if (type === "integer" || type === "number") {
    const low = (schema.minimum as number | undefined) ?? 0;
    return Math.min(low, (schema.maximum as number | undefined) ?? low);
  }
  if (type === "boolean") return true;
  const formatted = FORMAT_SAMPLES[schema.format as string];
  return formatted ?? "x".repeat(Math.max(1, (schema.minLength as number | undefined) ?? 1));
}

/** The least plausible value of each format toolguard checks (a format is an assertion there). */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  uri: "https://example.com/x",
  url: "https://example.com/x",
  email: "a@example.com",
  "date-time": "2024-01-01T00:00:00Z",
  date: "2024-01-01",
  uuid: "00000000-0000-4000-8000-000000000000",
};
