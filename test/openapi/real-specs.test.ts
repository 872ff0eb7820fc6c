// Real documents: every @readme/oas-examples document we read, and GitHub's REST API description
// (@octokit/openapi). Every generated input schema must compile in ajv's strict mode, and the
// request-body examples GitHub ships, mapped into argument objects, must validate.
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReadResult, ToolDescription } from "../../generator/ir.ts";
import { KEPT_FORMATS } from "../../generator/read/openapi/formats.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { formats } from "../../templates/runtime/validate/formats.ts";
import { prepareCompile } from "../../generator/emit/validator.ts";
import { requestExamples, requiredParameterValues } from "../helpers/openapi-samples.ts";
import { hazardWalk } from "../../generator/emit/hazard-walk.ts";
import { buildCoercionTable } from "../../generator/emit/coercion-table.ts";
import { createGuard } from "../../templates/runtime/call/guard.ts";
import type { HazardWalk, StandaloneValidator, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { anyValue, shortestNumber } from "../../templates/runtime/parse/json-hazards.ts";
import { PlainArgument } from "../../templates/runtime/call/path-arguments.ts";

const require = createRequire(import.meta.url);
const examplesRoot = path.dirname(require.resolve("@readme/oas-examples/package.json"));
const githubRoot = path.join(path.dirname(require.resolve("@octokit/openapi/package.json")), "generated");

function createAjv(): Ajv2020 {
  // The runtime's real format checks where it has them, the rest known as annotations.
  const known: Record<string, true | ((value: string) => boolean)> = Object.fromEntries(KEPT_FORMATS.map((name) => [name, true]));
  // strictTypes off, as the generator's ajv: a type-specific keyword implies no type (issue 32).
  return new Ajv2020({ strict: true, strictTypes: false, allErrors: true, formats: { ...known, ...formats } });
}

function compileAll(tools: readonly ToolDescription[]): string[] {
  // One instance for every tool: making one compiles the draft's meta-schemas again, which cost
  // more than most tools' own schemas (1,221 instances took minutes on a loaded machine). Each
  // schema is removed after its compile, so no tool sees another's.
  const ajv = createAjv();
  const failures: string[] = [];
  for (const tool of tools) {
    const schema = tool.inputSchema as object;
    try {
      ajv.compile(schema);
    } catch (error) {
      failures.push(`${tool.name}: ${(error as Error).message}`);
    } finally {
      ajv.removeSchema(schema);
    }
  }
  return failures;
}

function groupReasons(result: ReadResult): Record<string, number> {
  const groups: Record<string, number> = {};
  for (const skip of result.skipped) {
    const reason = skip.reason.replace(/ \(at #.*\)$/, "");
    groups[reason] = (groups[reason] ?? 0) + 1;
  }
  return groups;
}

describe("@readme/oas-examples", () => {
  const documents = ["3.0", "3.1"].flatMap((version) =>
    readdirSync(path.join(examplesRoot, version, "json"))
      .filter((file) => file.endsWith(".json"))
      .map((file) => `${version}/json/${file}`),
  );

  it.each(documents)("%s reads, and every tool compiles in ajv strict mode", async (file) => {
    const result = readOpenApi(await loadOpenApiDocument(path.join(examplesRoot, file), { root: examplesRoot }));
    expect(compileAll(result.tools)).toEqual([]);
    for (const skip of result.skipped) expect(skip.reason).not.toBe("");
  });

  it("a YAML document reads like its JSON twin", async () => {
    const [yaml, json] = await Promise.all(
      ["3.0/yaml/petstore.yaml", "3.0/json/petstore.json"].map(async (file) =>
        readOpenApi(await loadOpenApiDocument(path.join(examplesRoot, file), { root: examplesRoot })),
      ),
    );
    expect(yaml!.tools.map((tool) => tool.inputSchema)).toEqual(json!.tools.map((tool) => tool.inputSchema));
  });
});

describe("GitHub's REST API (@octokit/openapi api.github.com.json)", () => {
  let result: ReadResult;
  let document: Record<string, unknown>;
  let readMs = 0;

  beforeAll(async () => {
    const loaded = await loadOpenApiDocument(path.join(githubRoot, "api.github.com.json"), { root: githubRoot });
    document = loaded.document as Record<string, unknown>;
    const started = performance.now();
    result = readOpenApi(loaded);
    readMs = performance.now() - started;
    console.log(`GitHub: ${result.tools.length} tools, ${result.skipped.length} skipped in ${readMs.toFixed(0)} ms`, groupReasons(result));
  });

  it("produces a tool for nearly every operation, and says why for the rest", () => {
    expect(result.tools.length).toBeGreaterThan(1000);
    expect(groupReasons(result)).toEqual({
      "request body has no JSON media type, form, multipart form or text (offers application/octet-stream)": 1,
    });
    for (const tool of result.tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it("every input schema compiles in ajv's strict mode", () => {
    expect(compileAll(result.tools)).toEqual([]);
  });

  const sample = [
    "issues/create",
    "pulls/create",
    "repos/create-for-authenticated-user",
    "issues/update",
    "issues/create-comment",
    "repos/create-or-update-file-contents",
    "git/create-tree",
    "repos/create-webhook",
    "checks/create",
    "actions/create-or-update-repo-secret",
    "gists/create",
    "repos/update-branch-protection",
    "orgs/update",
    "teams/create",
    "repos/create-release",
  ];

  it.each(sample)("%s: the spec's request-body examples validate as arguments", (operationId) => {
    const tool = result.tools.find((candidate) => candidate.name === operationId.replaceAll("/", "_"));
    expect(tool, operationId).toBeDefined();
    const bodies = requestExamples(document, tool!);
    expect(bodies.length, `${operationId} has request examples`).toBeGreaterThan(0);
    const validate = createAjv().compile(tool!.inputSchema as object);
    for (const body of bodies) {
      const args = { ...requiredParameterValues(tool!), body };
      expect(validate(args), `${operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  // Examples in GitHub's description that contradict its own schemas (checked by hand: the
  // schema, not the translation, disagrees). Listed so a new rejection, or a fixed one, shows.
  const knownDefects: Record<string, string> = {
    gists_update: "deletes a file with `null`, which the files schema does not allow (not nullable)",
    "orgs_create-issue-field": "options omit the required `priority`",
    "projects_add-field-for-org": "single-select option names are objects ({raw, html}); the schema says string",
    "projects_add-field-for-user": "single-select option names are objects ({raw, html}); the schema says string",
    "security-advisories_update-repository-advisory": "one example body is an array; the schema is an object",
    "codespaces_set-repositories-for-secret-for-authenticated-user": "repository ids given as strings; the schema says integer",
    "users_create-public-ssh-key-for-authenticated-user": "the example key lacks the `ssh-...` prefix the pattern requires",
    "users_create-ssh-signing-key-for-authenticated-user": "the example key lacks the `ssh-...` prefix the pattern requires",
    "markdown_render-raw": "the text/plain body's example is an object `{text}`; the schema (and the media type) say a string",
  };

  it("every other request-body example in the spec validates too", () => {
    const rejected = new Set<string>();
    let checked = 0;
    for (const tool of result.tools) {
      const examples = requestExamples(document, tool);
      if (examples.length === 0) continue;
      const validate = createAjv().compile(tool.inputSchema as object);
      for (const body of examples) {
        checked++;
        // GitHub writes `null` for "send no body" on operations whose body is optional.
        const args = body === null && !tool.http?.body?.required ? requiredParameterValues(tool) : { ...requiredParameterValues(tool), body };
        if (!validate(args)) rejected.add(tool.name);
      }
    }
    console.log(`GitHub: ${checked} request-body examples checked; rejected in ${rejected.size} operations, all known spec defects`);
    expect(checked).toBeGreaterThan(400);
    expect([...rejected].sort()).toEqual(Object.keys(knownDefects).sort());
  });

  it("toolguard's optimised validators give ajv's verdict on every example and on broken variants of it", () => {
    // fold-combinators.ts and ajv-2020-static.ts must not change a verdict; GitHub's schemas are
    // the union-heaviest real input at hand.
    let compared = 0;
    const disagreements: string[] = [];
    for (const tool of result.tools) {
      const examples = requestExamples(document, tool);
      if (examples.length === 0) continue;
      const compile = (optimise: boolean) => {
        const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), optimise);
        return ajv.compile(compiled);
      };
      const asWritten = compile(false);
      const optimised = compile(true);
      for (const body of examples) {
        const args = { ...requiredParameterValues(tool), body };
        for (const value of [args, ...brokenVariants(args)]) {
          compared++;
          if (asWritten(value) !== optimised(value)) disagreements.push(`${tool.name}: ${JSON.stringify(value).slice(0, 200)}`);
        }
      }
    }
    console.log(`GitHub: ${compared} argument objects checked by ajv's validator and toolguard's`);
    expect(compared).toBeGreaterThan(4000);
    expect(disagreements).toEqual([]);
  });

  it("the hazard walk generated per tool answers as the runtime's walk on every example, and on hazardous variants of it", () => {
    // generator/emit/hazard-walk.ts moves the hazard checks after the validator; on GitHub's
    // schemas (open bodies, unions, nullable fields) a guard with the walk must give exactly the
    // answer of one without it, for valid texts and for texts with each hazard.
    const sink = { append() {}, flush: () => Promise.resolve(), close: () => Promise.resolve() };
    let compared = 0;
    let walked = 0;
    const disagreements: string[] = [];
    for (const tool of result.tools) {
      const examples = requestExamples(document, tool);
      if (examples.length === 0) continue;
      // With the tool's coercion table, the walk also prints the coercion step's look at its
      // places; the guard without the walk looks over the runtime's tree of them instead.
      const coercions = buildCoercionTable(tool);
      const code = hazardWalk(tool, coercions);
      if (code === undefined) continue;
      walked++;
      const walk = new Function("shortestNumber", "anyValue", "PlainArgument", `return ${code.text};`)(shortestNumber, anyValue, PlainArgument) as HazardWalk;
      const { ajv, compiled } = prepareCompile(tool.dialect, structuredClone(tool.inputSchema), true);
      const spec = (hazards: HazardWalk | undefined): ToolSpec => ({
        name: tool.name,
        description: "",
        inputSchema: tool.inputSchema as ToolSpec["inputSchema"],
        validate: ajv.compile(compiled) as unknown as StandaloneValidator,
        coercions,
        hints: {},
        references: {},
        http: tool.http,
        hazardWalk: hazards,
      });
      const plain = createGuard(spec(undefined), () => "ran", { ledger: sink });
      const guarded = createGuard(spec(walk), () => "ran", { ledger: sink });
      for (const body of examples) {
        for (const raw of hazardousTexts({ ...requiredParameterValues(tool), body })) {
          compared++;
          const answer = (guard: typeof plain) => {
            const checked = guard.check(raw, { turn: `${compared}` });
            return checked.ok ? { ok: true, args: checked.args } : { ok: false, outcome: checked.outcome };
          };
          const expected = answer(plain);
          if (JSON.stringify(answer(guarded)) !== JSON.stringify(expected)) disagreements.push(`${tool.name}: ${raw.slice(0, 160)}`);
        }
      }
    }
    console.log(`GitHub: ${walked} tools with examples and a walk, ${compared} texts answered alike with and without it`);
    expect(compared).toBeGreaterThan(3000);
    expect(disagreements).toEqual([]);
  });
});

/**
 * The text of `args` compact, indented, and with every number and boolean as a string, and with each hazard the checks exist for placed in
 * its body: a repeated key, a number that lost digits, one that overflowed, a lone surrogate,
 * nesting past the limit.
 */
function hazardousTexts(args: Record<string, unknown>): string[] {
  const compact = JSON.stringify(args);
  // Every number and boolean sent as a string, as a model may: what the coercion step reads.
  const stringly = JSON.stringify(args, (_key, value: unknown) => (typeof value === "number" || typeof value === "boolean" ? String(value) : value));
  const texts = [compact, JSON.stringify(args, null, 2), stringly];
  const body = args["body"];
  if (body === null || typeof body !== "object" || Array.isArray(body)) return texts;
  const inner = JSON.stringify(body).slice(1, -1);
  const withBody = (members: string): string => JSON.stringify({ ...args, body: "BODY" }).replace('"BODY"', `{${members}}`);
  const first = Object.keys(body)[0];
  if (first !== undefined) texts.push(withBody(`${JSON.stringify(first)}:0${inner ? `,${inner}` : ""}`));
  for (const extra of ['"n":12345678901234567890', '"n":1e400', '"s":"\\ud800"', `"d":${"[".repeat(70)}${"]".repeat(70)}`]) {
    texts.push(withBody(inner ? `${inner},${extra}` : extra));
  }
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string")
      texts.push(
        withBody(inner.replace(`${JSON.stringify(key)}:${JSON.stringify(value)}`, `${JSON.stringify(key)}:"\\udfff${JSON.stringify(value).slice(1)}`)),
      );
    if (typeof value === "number")
      texts.push(withBody(inner.replace(`${JSON.stringify(key)}:${JSON.stringify(value)}`, `${JSON.stringify(key)}:9007199254740993`)));
  }
  return texts;
}

/**
 * Arguments near `args`: each property of the body removed, or replaced by a value of another
 * kind, so that unions (GitHub's `oneOf`s) fail in every way a model might make them fail.
 */
function brokenVariants(args: Record<string, unknown>): unknown[] {
  const body = args["body"];
  if (body === null || typeof body !== "object" || Array.isArray(body)) return [{ ...args, body: 7 }];
  const variants: unknown[] = [];
  for (const key of Object.keys(body)) {
    const { [key]: _removed, ...rest } = body as Record<string, unknown>;
    variants.push({ ...args, body: rest });
    for (const wrong of [7, 2.5, "x", true, null, [], [{}], {}, { type: "x" }]) variants.push({ ...args, body: { ...body, [key]: wrong } });
  }
  return variants;
}
