// Mistakes on GitHub's REST API description (@octokit/openapi), made from the spec's own request
// examples: each tool's documented body, with its path parameters filled in, is valid; each case
// changes it the way a model plausibly would, in one place, and says what the envelope must carry.
import { createRequire } from "node:module";
import path from "node:path";
import type { ToolDescription } from "../../generator/ir.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import type { CorpusCase, Expected } from "../../generator/rehearse/mistake-case.ts";
import { misspellings } from "../../generator/rehearse/misspell.ts";
import { setAt } from "../../generator/rehearse/mistakes/classes.ts";
import { pointer } from "../../generator/rehearse/mistakes/schema-view.ts";

const require = createRequire(import.meta.url);
const packageJson = require.resolve("@octokit/openapi/package.json");
const SOURCE = `npm @octokit/openapi@${(require(packageJson) as { version: string }).version} api.github.com.json`;

type Schema = Record<string, unknown>;

export async function readGitHub(): Promise<readonly ToolDescription[]> {
  const root = path.join(path.dirname(packageJson), "generated");
  return readOpenApi(await loadOpenApiDocument(path.join(root, "api.github.com.json"), { root })).tools;
}

function resolve(schema: unknown, root: Schema): Schema | undefined {
  let node = schema;
  for (let hops = 0; hops < 8 && node && typeof node === "object" && typeof (node as Schema).$ref === "string"; hops++) {
    const ref = (node as Schema).$ref as string;
    node = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((at, token) => (at as Schema | undefined)?.[token.replaceAll("~1", "/").replaceAll("~0", "~")], root);
  }
  return node && typeof node === "object" && !Array.isArray(node) ? (node as Schema) : undefined;
}

function types(schema: Schema): string[] {
  return typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
}

/** The valid arguments made of the body's first example and placeholders for the required parameters. */
export function validArguments(tool: ToolDescription): Record<string, unknown> | undefined {
  const schema = tool.inputSchema as Schema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const args: Record<string, unknown> = {};
  for (const name of (schema.required as string[] | undefined) ?? []) {
    if (name === "body") continue;
    const property = resolve(properties[name], schema);
    if (!property) return undefined;
    const kinds = types(property);
    if (Array.isArray(property.enum)) args[name] = property.enum[0];
    else if (kinds.includes("integer") || kinds.includes("number")) args[name] = 42;
    else if (kinds.includes("string")) args[name] = name === "owner" || name === "org" ? "octo-org" : name === "repo" ? "hello-world" : "main";
    else return undefined;
  }
  const body = resolve(properties["body"], schema);
  if (body) {
    const examples = body.examples;
    if (!Array.isArray(examples) || examples.length === 0) return undefined;
    args["body"] = structuredClone(examples[0]);
  }
  return args;
}

interface Leaf {
  readonly path: string[];
  readonly value: unknown;
  readonly schema: Schema;
  readonly required: boolean;
}

/** Every value of `value` with the schema that applies to it (through `$ref`s; unions are not entered). */
function leaves(value: unknown, schema: Schema | undefined, root: Schema, at: string[] = [], required = true): Leaf[] {
  if (!schema) return [];
  const out: Leaf[] = [{ path: at, value, schema, required }];
  if (Array.isArray(value)) {
    const items = resolve(schema.items, root);
    for (const [index, item] of value.entries()) out.push(...leaves(item, items, root, [...at, String(index)], true));
  } else if (value && typeof value === "object") {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const needed = (schema.required as string[] | undefined) ?? [];
    for (const [key, child] of Object.entries(value)) out.push(...leaves(child, resolve(properties[key], root), root, [...at, key], needed.includes(key)));
  }
  return out;
}

/** Words a model puts around a number, by what the field counts. */
function numberWritten(name: string, n: number): string {
  if (/number$|_id$|^id$/.test(name)) return `#${n}`;
  if (/per_page|limit|count/.test(name)) return `${n} per page`;
  if (/page/.test(name)) return `page ${n}`;
  if (/days|day/.test(name)) return `${n} days`;
  return `${n} items`;
}

/** The cases for one tool, at most `limit` of each kind. */
export function casesFor(tool: ToolDescription, valid: Record<string, unknown>, limit = 3): CorpusCase[] {
  const schema = tool.inputSchema as Schema;
  const out: CorpusCase[] = [];
  const add = (mistake: string, args: unknown, expect: Expected): void => {
    out.push({ id: `${tool.name}: ${mistake} ${out.length}`, source: SOURCE, tool: tool.name, mistake, args, expect });
  };
  const all = leaves(valid, schema, schema);
  const body = valid["body"];
  const rootProperties = Object.keys((schema.properties ?? {}) as object);
  // Body fields spread at the top level instead of inside `body` (toolguard's own convention).
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const keys = Object.keys(body);
    const first = keys[0];
    if (first !== undefined && !keys.some((key) => rootProperties.includes(key))) {
      const { body: _body, ...params } = valid;
      add(
        "body field at the top level",
        {
          ...params,
          [first]: (body as Record<string, unknown>)[first],
          body: Object.fromEntries(keys.slice(1).map((key) => [key, (body as Record<string, unknown>)[key]])),
        },
        { op: "move", from: pointer([first]), to: pointer(["body", first]) },
      );
    }
    const param = Object.keys(valid).find((key) => key !== "body");
    if (param !== undefined) {
      const { [param]: moved, ...rest } = valid;
      add("path parameter inside body", { ...rest, body: { ...body, [param]: moved } }, { op: "move", from: pointer(["body", param]), to: pointer([param]) });
    }
  }
  let enums = 0;
  let numbers = 0;
  let nulls = 0;
  let arrays = 0;
  let dropped = 0;
  let renamed = 0;
  for (const leaf of all) {
    const name = leaf.path[leaf.path.length - 1] ?? "";
    const kinds = types(leaf.schema);
    if (leaf.path.length === 0) continue;
    if (typeof leaf.value === "string" && Array.isArray(leaf.schema.enum) && enums < limit) {
      for (const wrong of misspellings(
        leaf.value,
        leaf.schema.enum.filter((v): v is string => typeof v === "string"),
      ).slice(0, 2)) {
        add("far near miss of an allowed value", setAt(valid, leaf.path, wrong), { op: "set", path: pointer(leaf.path), value: leaf.value });
        enums++;
      }
    }
    if (
      typeof leaf.value === "number" &&
      Number.isInteger(leaf.value) &&
      leaf.value >= 0 &&
      (kinds.includes("integer") || kinds.includes("number")) &&
      !kinds.includes("string") &&
      numbers < limit
    ) {
      add("number written with a mark or words", setAt(valid, leaf.path, numberWritten(name, leaf.value)), {
        op: "set",
        path: pointer(leaf.path),
        value: leaf.value,
      });
      numbers++;
    }
    if (
      !leaf.required &&
      leaf.value !== null &&
      kinds.length > 0 &&
      !kinds.includes("null") &&
      leaf.path[0] === "body" &&
      leaf.path.length === 2 &&
      nulls < 1
    ) {
      add("null for an optional field", setAt(valid, leaf.path, null), { op: "remove", path: pointer(leaf.path) });
      nulls++;
    }
    if (Array.isArray(leaf.value) && leaf.value.length === 1 && typeof leaf.value[0] === "string" && kinds.includes("array") && arrays < 1) {
      add("one value where a list is wanted", setAt(valid, leaf.path, leaf.value[0]), { op: "set", path: pointer(leaf.path), value: leaf.value });
      arrays++;
    }
    const holder = leaf.path.length >= 2 ? all.find((other) => pointer(other.path) === pointer(leaf.path.slice(0, -1))) : undefined;
    if (leaf.required && holder !== undefined && !Array.isArray(holder.value) && leaf.path[0] === "body" && dropped < 1) {
      add("missing required field", setAt(valid, leaf.path, undefined), { op: "ask", path: pointer(leaf.path) });
      dropped++;
    }
    if (leaf.path.length >= 2 && renamed < 1) {
      const parent = all.find((other) => pointer(other.path) === pointer(leaf.path.slice(0, -1)));
      const siblings = Object.keys((parent?.schema.properties ?? {}) as object);
      if (parent?.schema.additionalProperties === false) {
        for (const wrong of misspellings(name, siblings).slice(0, 1)) {
          const copy = setAt(valid, leaf.path, undefined);
          add("far near miss of a field name", setAt(copy, [...leaf.path.slice(0, -1), wrong], leaf.value), {
            op: "rename",
            path: pointer([...leaf.path.slice(0, -1), wrong]),
            to: name,
          });
          renamed++;
        }
      }
    }
  }
  // Query parameters with allowed values (state, sort, direction, ...), each written wrong.
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    const property = resolve(raw, schema);
    if (!property || !Array.isArray(property.enum) || name === "body") continue;
    const values = property.enum.filter((v): v is string => typeof v === "string");
    for (const value of values) {
      for (const wrong of misspellings(value, values).slice(0, 1))
        add("far near miss of a parameter value", { ...valid, [name]: wrong }, { op: "set", path: pointer([name]), value });
    }
  }
  for (const name of ["per_page", "page"]) {
    const property = resolve((schema.properties as Record<string, unknown> | undefined)?.[name], schema);
    if (property) add("number written with a mark or words", { ...valid, [name]: numberWritten(name, 30) }, { op: "set", path: pointer([name]), value: 30 });
  }
  return out;
}
