// The feature classes a document exercises, found by one walk over it as written. The sample
// that runs in `npm test` is chosen to cover every class (sample.ts), so a defect class the
// whole corpus can show has a document in the sample that shows it.

type Node = Record<string, unknown>;

/** Every class the sample must cover; a document's tags are a subset. */
export const FEATURES = [
  "openapi-3.0",
  "openapi-3.1",
  "swagger-2.0",
  "published-as-swagger-2.0",
  "discriminator",
  "oneOf",
  "anyOf",
  "allOf",
  "nullable",
  "type-array",
  "pattern",
  "format-other",
  "examples",
  "form-urlencoded",
  "multipart",
  "content-parameter",
  "operation-servers",
  "x-key-under-paths",
  "deep-object",
  "recursive-ref",
  "lookaround-pattern",
  "indices-text",
  "many-operations",
  "mcp",
] as const;

export type Feature = (typeof FEATURES)[number];

/** Formats toolguard asserts or knowingly drops (generator/read/openapi/formats.ts decides; here only for tagging). */
const COMMON_FORMATS = new Set([
  "date",
  "time",
  "date-time",
  "duration",
  "email",
  "uuid",
  "uri",
  "uri-reference",
  "hostname",
  "ipv4",
  "ipv6",
  "int32",
  "int64",
  "float",
  "double",
  "byte",
  "binary",
  "password",
]);

/**
 * Operations of an OpenAPI/Swagger document: [path, method, operation]. In OpenAPI 3.2 a path
 * item also has `query` and `additionalOperations` (a map from the method as sent to its
 * operation); earlier versions do not define them, so there they are no operations.
 */
export function operationsOf(document: Node): [string, string, Node][] {
  const out: [string, string, Node][] = [];
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  const version32 = typeof document.openapi === "string" && /^3\.2\./.test(document.openapi);
  if (version32) methods.push("query");
  for (const [route, item] of Object.entries((document.paths as Node | undefined) ?? {})) {
    if (item === null || typeof item !== "object") continue;
    for (const method of methods) {
      const operation = (item as Node)[method];
      if (operation && typeof operation === "object") out.push([route, method, operation as Node]);
    }
    const additional = (item as Node).additionalOperations;
    if (!version32 || additional === null || typeof additional !== "object" || Array.isArray(additional)) continue;
    for (const [method, operation] of Object.entries(additional as Node))
      if (operation && typeof operation === "object") out.push([route, method, operation as Node]);
  }
  return out;
}

export function documentFeatures(document: Node): Feature[] {
  const tags = new Set<Feature>();
  if (typeof document.swagger === "string") tags.add("swagger-2.0");
  else if (String(document.openapi).startsWith("3.1")) tags.add("openapi-3.1");
  else tags.add("openapi-3.0");
  const origins = (document.info as Node | undefined)?.["x-origin"];
  if (Array.isArray(origins) && origins.some((origin) => (origin as Node)?.format === "swagger")) tags.add("published-as-swagger-2.0");
  const paths = (document.paths as Node | undefined) ?? {};
  if (Object.keys(paths).some((key) => key.startsWith("x-"))) tags.add("x-key-under-paths");
  const operations = operationsOf(document);
  if (operations.length >= 200) tags.add("many-operations");
  for (const [route, , operation] of operations) {
    if (operation.servers || (paths[route] as Node).servers) tags.add("operation-servers");
    const parameters = [...((operation.parameters as Node[] | undefined) ?? []), ...(((paths[route] as Node).parameters as Node[] | undefined) ?? [])];
    for (const parameter of parameters) {
      if (parameter?.content) tags.add("content-parameter");
      if (parameter?.style === "deepObject") tags.add("deep-object");
      if (parameter?.in === "formData") tags.add(parameter.type === "file" ? "multipart" : "form-urlencoded");
    }
    const content = Object.keys(((operation.requestBody as Node | undefined)?.content as Node | undefined) ?? {});
    if (content.some((type) => type.startsWith("application/x-www-form-urlencoded"))) tags.add("form-urlencoded");
    if (content.some((type) => type.startsWith("multipart/"))) tags.add("multipart");
  }
  const walk = (node: unknown, depth: number): void => {
    if (depth > 200 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    const schema = node as Node;
    if (schema.discriminator && typeof schema.discriminator === "object") tags.add("discriminator");
    if (Array.isArray(schema.oneOf)) tags.add("oneOf");
    if (Array.isArray(schema.anyOf)) tags.add("anyOf");
    if (Array.isArray(schema.allOf)) tags.add("allOf");
    if (schema.nullable === true) tags.add("nullable");
    if (Array.isArray(schema.type)) tags.add("type-array");
    if (typeof schema.pattern === "string") tags.add("pattern");
    // Lookarounds have no linear-time engine (issue 32: one refused a whole document).
    if (typeof schema.pattern === "string" && /\(\?<?[=!]/.test(schema.pattern)) tags.add("lookaround-pattern");
    if (typeof schema.format === "string" && !COMMON_FORMATS.has(schema.format)) tags.add("format-other");
    if (schema.example !== undefined || (schema.examples !== undefined && typeof schema.examples === "object")) tags.add("examples");
    for (const [key, value] of Object.entries(schema)) if (key !== "example" && key !== "examples") walk(value, depth + 1);
  };
  // Schemas only: `info` carries `x-origin[].format` ("openapi"), which is no schema's format.
  walk([document.paths, document.components, document.definitions, document.parameters], 0);
  // Schema text reaching a search over ajv's printed code (issue 32's `indices`).
  if (JSON.stringify([document.paths, document.components, document.definitions]).includes("indices")) tags.add("indices-text");
  if (hasRecursiveRef(document)) tags.add("recursive-ref");
  return FEATURES.filter((feature) => tags.has(feature));
}

/** Whether some component schema reaches itself through local `$ref`s. */
function hasRecursiveRef(document: Node): boolean {
  const schemas = ((document.components as Node | undefined)?.schemas ?? document.definitions ?? {}) as Node;
  const prefix = document.definitions ? "#/definitions/" : "#/components/schemas/";
  const edges = new Map<string, Set<string>>();
  const collect = (node: unknown, into: Set<string>, depth: number): void => {
    if (depth > 200 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) collect(item, into, depth + 1);
      return;
    }
    const ref = (node as Node).$ref;
    if (typeof ref === "string" && ref.startsWith(prefix)) into.add(ref.slice(prefix.length));
    for (const [key, value] of Object.entries(node)) if (key !== "example" && key !== "examples") collect(value, into, depth + 1);
  };
  for (const [name, schema] of Object.entries(schemas)) {
    const into = new Set<string>();
    collect(schema, into, 0);
    edges.set(name, into);
  }
  const state = new Map<string, 1 | 2>();
  const cyclic = (name: string): boolean => {
    if (state.get(name) === 1) return true;
    if (state.get(name) === 2 || !edges.has(name)) return false;
    state.set(name, 1);
    for (const next of edges.get(name)!) if (cyclic(next)) return true;
    state.set(name, 2);
    return false;
  };
  return [...edges.keys()].some(cyclic);
}
