// `properties: {$ref: ...}` standing for a whole properties map: DigitalOcean writes this (its
// split description reuses one schema's map in another), and 3 of its operations were skipped
// "expected a schema object" (issue 32). The map is read as the one the `$ref` names, when that
// is a map of schemas; otherwise the skip reason says what it found.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDescription } from "../../generator/ir.ts";
import { KEPT_FORMATS } from "../../generator/read/openapi/formats.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const post = (operationId: string, schema: unknown) => ({
  post: { operationId, requestBody: { required: true, content: { "application/json": { schema } } }, responses: { 200: { description: "ok" } } },
});

const document = {
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/droplets": post("createDroplet", { $ref: "#/components/schemas/droplet_create" }),
    "/droplets/multiple": post("createDroplets", {
      type: "object",
      // Beside the `$ref`, names of its own (they win over the referenced map's).
      properties: { $ref: "#/components/schemas/droplet_create/properties", names: { type: "array", items: { type: "string" } }, size: { type: "integer" } },
      required: ["names", "region"],
    }),
    "/chained": post("chained", { type: "object", properties: { $ref: "#/components/schemas/alias_of_map" }, required: ["region"] }),
    "/to-string": post("toString", { type: "object", properties: { $ref: "#/components/schemas/droplet_create/description" } }),
    "/to-nothing": post("toNothing", { type: "object", properties: { $ref: "#/components/schemas/droplet_create/nope" } }),
    "/to-values": post("toValues", { type: "object", properties: { $ref: "#/components/schemas/droplet_create/required" } }),
    "/to-mixed": post("toMixed", { type: "object", properties: { $ref: "#/components/x-mixed" } }),
    // A readOnly property of the referenced map is left out of a request, as one written inline.
    "/read-only": post("readOnly", { type: "object", properties: { $ref: "#/components/schemas/with_id/properties" }, required: ["id", "name"] }),
    // A discriminator branch whose properties map is a `$ref`: its own `enum` decides its value.
    "/pets": post("createPet", {
      oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
      discriminator: { propertyName: "kind" },
    }),
    // A property named `$ref` (its value a schema, not a string) is a property.
    "/named-ref": post("namedRef", { type: "object", properties: { $ref: { type: "string" } }, required: ["$ref"] }),
  },
  components: {
    "x-mixed": { a: { type: "string" }, b: "not a schema" },
    schemas: {
      droplet_create: {
        type: "object",
        description: "A droplet",
        properties: {
          name: { type: "string", maxLength: 10 },
          region: { type: "string", enum: ["nyc1", "ams3"] },
          size: { type: "string" },
          tags: { type: "array", items: { $ref: "#/components/schemas/tag" } },
        },
        required: ["name", "region"],
      },
      tag: { type: "string", pattern: "^[a-z]+$" },
      Cat: { type: "object", properties: { $ref: "#/components/schemas/cat_properties" }, required: ["kind"] },
      cat_properties: { kind: { type: "string", enum: ["cat"] }, lives: { type: "integer" } },
      Dog: { type: "object", properties: { kind: { type: "string", enum: ["dog"] } }, required: ["kind"] },
      with_id: { type: "object", properties: { id: { type: "string", readOnly: true }, name: { type: "string" } } },
      alias_of_map: { $ref: "#/components/schemas/droplet_create/properties" },
    },
  },
};

const result = readOpenApi({ file: "do.json", document });
const tool = (name: string): ToolDescription => {
  const found = result.tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}: ${result.skipped.find((skip) => skip.name === name)?.reason}`);
  return found;
};
const validate = (name: string) => {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, formats: Object.fromEntries(KEPT_FORMATS.map((format) => [format, true])) });
  const check = ajv.compile(tool(name).inputSchema as object);
  return (body: unknown) => check({ body });
};
const reason = (name: string) => result.skipped.find((skip) => skip.name === name)?.reason;

describe("properties: {$ref} naming a whole map", () => {
  it("is read as the map it resolves to, with the referenced schemas' own $refs", () => {
    const multiple = validate("createDroplets");
    expect(multiple({ names: ["a"], region: "nyc1", size: 2, tags: ["web"] })).toBe(true);
    expect(multiple({ names: ["a"], region: "lon1" })).toBe(false); // the referenced enum
    expect(multiple({ names: ["a"], region: "nyc1", tags: ["Web"] })).toBe(false); // the referenced tag's pattern
    expect(multiple({ names: ["a"], region: "nyc1", name: "x".repeat(11) })).toBe(false);
    expect(multiple({ names: ["a"], region: "nyc1", size: "s-1vcpu" })).toBe(false); // its own `size` wins
    expect(Object.keys((tool("createDroplets").inputSchema.properties as { body: { properties: object } }).body.properties)).toEqual([
      "name",
      "region",
      "tags",
      "names",
      "size",
    ]);
  });

  it("follows a $ref to a $ref to the map", () => {
    const chained = validate("chained");
    expect(chained({ region: "ams3", name: "n" })).toBe(true);
    expect(chained({ name: "n" })).toBe(false);
  });

  it("leaves a readOnly property of the referenced map out of the request", () => {
    const readOnly = validate("readOnly");
    expect(readOnly({ name: "n" })).toBe(true); // `id` is not required of a request
    expect(readOnly({})).toBe(false);
    expect(Object.keys((tool("readOnly").inputSchema.properties as { body: { properties: object } }).body.properties)).toEqual(["name"]);
  });

  it("a discriminator branch's own enum, inside a referenced map, decides its value", () => {
    const pets = validate("createPet");
    expect(pets({ kind: "cat", lives: 9 })).toBe(true);
    expect(pets({ kind: "dog" })).toBe(true);
    expect(pets({ kind: "Cat" })).toBe(false);
    expect(pets({ kind: "cat", lives: "nine" })).toBe(false);
  });

  it("a property named $ref, whose value is a schema, stays a property", () => {
    const named = validate("namedRef");
    expect(named({ $ref: "x" })).toBe(true);
    expect(named({ $ref: 1 })).toBe(false);
  });

  it("skips the operation, saying what it found, when the $ref names no map of schemas", () => {
    expect(reason("toString")).toMatch(
      /`properties` is a \$ref "#\/components\/schemas\/droplet_create\/description" to the string "A droplet", not a map of names to schemas/,
    );
    expect(reason("toNothing")).toMatch(/`properties` is a \$ref "#\/components\/schemas\/droplet_create\/nope" that points at nothing/);
    expect(reason("toValues")).toMatch(/to an array, not a map of names to schemas/);
    expect(reason("toMixed")).toMatch(/to an object whose "b" is the string "not a schema", not a schema/);
    expect(result.skipped.map((skip) => skip.name).sort()).toEqual(["toMixed", "toNothing", "toString", "toValues"]);
  });

  // DigitalOcean's own layout: one file is a properties map, `$ref`d from two schemas. The split
  // bundler writes it at the first and points the second there: `properties: {$ref: "#/..."}`.
  describe("in a split description", () => {
    let dir = "";
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("each schema that $refs the map file gets the map", async () => {
      dir = mkdtempSync(path.join(tmpdir(), "toolguard-map-"));
      const files: Record<string, unknown> = {
        "openapi.json": {
          openapi: "3.0.3",
          info: { title: "t", version: "1" },
          paths: {
            "/a": post("createA", { type: "object", properties: { $ref: "models/props.json" }, required: ["region"] }),
            "/b": post("createB", { type: "object", properties: { $ref: "models/props.json" }, required: ["region"] }),
          },
        },
        "models/props.json": { region: { type: "string", enum: ["nyc1"] }, tag: { $ref: "tag.json" } },
        "models/tag.json": { type: "string", pattern: "^[a-z]+$" },
      };
      for (const [name, value] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), JSON.stringify(value));
      }
      const split = readOpenApi(await loadOpenApiDocument(path.join(dir, "openapi.json"), { root: dir }));
      expect(split.skipped).toEqual([]);
      for (const name of ["createA", "createB"]) {
        const schema = split.tools.find((candidate) => candidate.name === name)?.inputSchema as object;
        const check = new Ajv2020({ strict: true, strictTypes: false }).compile(schema);
        expect(check({ body: { region: "nyc1", tag: "web" } }), name).toBe(true);
        expect(check({ body: { region: "lon1" } }), name).toBe(false);
        expect(check({ body: { region: "nyc1", tag: "Web" } }), name).toBe(false);
      }
    });
  });
});
