// The split-document bundler (generator/load/bundle-files.ts): each referenced file or pointer is
// written once, at the shallowest place that references it, every other reference made internal;
// files the set already parsed are not read again; bad references name the file and the pointer.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.ts";
import { bundleFiles } from "../../generator/load/bundle-files.ts";
import { loadOpenApiDocument } from "../../generator/read/openapi/load-openapi.ts";
import { parseSchemaText } from "../../generator/load/parse-text.ts";
import { resolvePointer } from "../../generator/json-pointer.ts";

let dir: string;
let root: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "toolguard-bundle-"));
  root = path.join(dir, "schemas");
  mkdirSync(root);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
}

function bundle(entry = "openapi.yaml", parsed = new Map<string, unknown>()): unknown {
  const file = path.join(root, entry);
  return bundleFiles(file, parseSchemaText(entry, readFileSync(file, "utf8")), { root }, parsed);
}

function thrown(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError");
}

const ENTRY = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /pets:
    $ref: paths/pets.yaml
components:
  schemas:
    Pet:
      $ref: components/schemas/Pet.yaml
`;

describe("bundleFiles", () => {
  it("writes each file once where the entry's components name it, and points every other reference there", () => {
    write({
      "openapi.yaml": ENTRY,
      "paths/pets.yaml": `post:
  requestBody:
    content:
      application/json:
        schema:
          type: object
          properties:
            pet: { $ref: ../components/schemas/Pet.yaml }
            name: { $ref: "../components/schemas/Pet.yaml#/properties/name" }
            tag: { $ref: ../components/schemas/Tag.yaml }
`,
      "components/schemas/Pet.yaml": `type: object
properties:
  name: { type: string }
  children: { type: array, items: { $ref: Pet.yaml } }
  tag: { $ref: ./Tag.yaml, description: the pet's tag }
`,
      "components/schemas/Tag.yaml": "type: string\n",
    });
    const document = bundle();
    const pet = "/components/schemas/Pet";
    const body = "/paths/~1pets/post/requestBody/content/application~1json/schema";
    expect(resolvePointer(document, `${pet}/properties/name`)).toEqual({ type: "string" });
    expect(resolvePointer(document, `${pet}/properties/children/items`)).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(resolvePointer(document, `${body}/properties/pet`)).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(resolvePointer(document, `${body}/properties/name`)).toEqual({ $ref: "#/components/schemas/Pet/properties/name" });
    // Tag is referenced from Pet (depth 5, with a sibling) and from the path (depth 9, plain): the
    // plain reference holds it, so the sibling stays beside the other's `$ref` and reaches no other use.
    expect(resolvePointer(document, `${body}/properties/tag`)).toEqual({ type: "string" });
    expect(resolvePointer(document, `${pet}/properties/tag`)).toEqual({
      $ref: `#${body}/properties/tag`,
      description: "the pet's tag",
    });
  });

  it("never lets a $ref's siblings reach another use of its target", () => {
    // A `maxLength: 4` beside one `$ref: Text.yaml` bounded every other use of Text.yaml: the
    // shallower site held the merge and the others pointed at it, a false rejection of a comment
    // of five characters that the one-file description accepts.
    write({
      "openapi.yaml": ENTRY.replace("paths/pets.yaml", "paths/orders.yaml").replace("/pets:", "/orders:"),
      "paths/orders.yaml": `post:
  requestBody:
    content:
      application/json:
        schema:
          type: object
          properties:
            comment: { $ref: ../components/schemas/Text.yaml }
            note: { $ref: ../components/schemas/Note.yaml, title: a note }
            memo: { $ref: ../components/schemas/Note.yaml, maxLength: 9 }
`,
      "components/schemas/Pet.yaml": `type: object
properties:
  code: { $ref: ./Text.yaml, maxLength: 4 }
  label: { $ref: ./Note.yaml, minLength: 2 }
`,
      "components/schemas/Text.yaml": "type: string\n",
      "components/schemas/Note.yaml": "type: string\nformat: text\n",
    });
    const document = bundle();
    const pet = "/components/schemas/Pet";
    const body = "/paths/~1orders/post/requestBody/content/application~1json/schema";
    // Text: a plain use exists, so it holds Text, and Pet's bounded use points there.
    expect(resolvePointer(document, `${body}/properties/comment`)).toEqual({ type: "string" });
    expect(resolvePointer(document, `${pet}/properties/code`)).toEqual({ $ref: `#${body}/properties/comment`, maxLength: 4 });
    // Note: every use has siblings; each is its own merge, none takes another's.
    expect(resolvePointer(document, `${pet}/properties/label`)).toEqual({ type: "string", format: "text", minLength: 2 });
    expect(resolvePointer(document, `${body}/properties/note`)).toEqual({ type: "string", format: "text", title: "a note" });
    expect(resolvePointer(document, `${body}/properties/memo`)).toEqual({ type: "string", format: "text", maxLength: 9 });
  });

  it("bounds the copies of merged targets: nested ones stop doubling and point at the merge", () => {
    // Each part holds two `$ref`s with siblings to the next: copying every use would write 2^21 objects.
    const parts = 20;
    const files: Record<string, string> = {
      "openapi.yaml": ENTRY.replace("paths/pets.yaml", "paths/orders.yaml").replace("/pets:", "/orders:"),
      "paths/orders.yaml": "post:\n  requestBody:\n    content:\n      application/json:\n        schema: { $ref: ../parts/a0.yaml, title: top }\n",
      "components/schemas/Pet.yaml": "type: object\n",
    };
    for (let part = 0; part < parts; part++) {
      const next = `./a${part + 1}.yaml`;
      files[`parts/a${part}.yaml`] =
        part === parts - 1 ? "type: string\n" : `type: object\nproperties:\n  left: { $ref: ${next}, title: left }\n  right: { $ref: ${next}, title: right }\n`;
    }
    write(files);
    const document = bundle();
    let objects = 0;
    const count = (value: unknown): void => {
      if (value === null || typeof value !== "object") return;
      objects++;
      for (const child of Object.values(value)) count(child);
    };
    count(document);
    // The budget is the document's own objects (at least 1,000); a copy started under it may finish past it.
    expect(objects).toBeLessThan(100_000);
    const body = resolvePointer(document, "/paths/~1orders/post/requestBody/content/application~1json/schema") as { title: string };
    expect(body.title).toBe("top");
  });

  it("uses the documents the set already parsed instead of reading them again", () => {
    write({ "openapi.yaml": ENTRY, "paths/pets.yaml": "{}\n", "components/schemas/Pet.yaml": "type: string\n" });
    const parsed = new Map<string, unknown>([[path.join(root, "components/schemas/Pet.yaml"), { type: "integer" }]]);
    expect(resolvePointer(bundle("openapi.yaml", parsed), "/components/schemas/Pet")).toEqual({ type: "integer" });
  });

  it("keeps a property named $ref (a schema, not a reference) and walks it", () => {
    write({
      "openapi.yaml": ENTRY,
      "paths/pets.yaml": "{}\n",
      "components/schemas/Pet.yaml": "type: object\nproperties:\n  $ref: { $ref: ./Tag.yaml }\n",
      "components/schemas/Tag.yaml": "type: string\n",
    });
    expect(resolvePointer(bundle(), "/components/schemas/Pet")).toEqual({ type: "object", properties: { $ref: { type: "string" } } });
  });

  it("escapes % in the internal references it writes, as ref-parser does", () => {
    write({
      "openapi.yaml": ENTRY.replace("    Pet:\n", "    Pet%:\n"),
      "paths/pets.yaml": "get:\n  parameters:\n    - $ref: ../components/schemas/Pet.yaml\n",
      "components/schemas/Pet.yaml": "type: string\n",
    });
    expect(resolvePointer(bundle(), "/paths/~1pets/get/parameters/0")).toEqual({ $ref: "#/components/schemas/Pet%25" });
  });

  it("leaves network references and $id to ref-parser", () => {
    write({ "openapi.yaml": ENTRY, "paths/pets.yaml": "$ref: https://example.com/p.yaml\n", "components/schemas/Pet.yaml": "type: string\n" });
    expect(bundle()).toBeUndefined();
    write({ "paths/pets.yaml": "{}\n", "components/schemas/Pet.yaml": "$id: https://example.com/pet\ntype: string\n" });
    expect(bundle()).toBeUndefined();
  });

  describe("bad references name the file and the $ref's pointer", () => {
    const nested = (ref: string) => `get:\n  parameters:\n    - $ref: "${ref}"\n`;
    const at = { file: "paths/pets.yaml", pointer: "/get/parameters/0/$ref" };

    it("a missing file", () => {
      write({ "openapi.yaml": ENTRY, "paths/pets.yaml": nested("../nope.yaml"), "components/schemas/Pet.yaml": "type: string\n" });
      const error = thrown(bundle);
      expect(error.location).toEqual(at);
      expect(error.message).toBe('$ref "../nope.yaml": $ref points to a file that does not exist: nope.yaml');
    });

    it("a file outside the root, directly or through a symlink", () => {
      writeFileSync(path.join(dir, "secret.yaml"), "type: string\n");
      write({ "openapi.yaml": ENTRY, "paths/pets.yaml": nested("../../secret.yaml"), "components/schemas/Pet.yaml": "type: string\n" });
      expect(thrown(bundle).location).toEqual(at);
      expect(thrown(bundle).message).toMatch(/reaches outside the schema root/);
      symlinkSync(path.join(dir, "secret.yaml"), path.join(root, "link.yaml"));
      write({ "paths/pets.yaml": nested("../link.yaml") });
      expect(thrown(bundle).message).toMatch(/\$ref "\.\.\/link\.yaml": \$ref reaches outside the schema root/);
    });

    it("bad YAML in a referenced file", () => {
      write({ "openapi.yaml": ENTRY, "paths/pets.yaml": "get: [unclosed\n", "components/schemas/Pet.yaml": "type: string\n" });
      const error = thrown(bundle);
      expect(error.location.file).toBe("paths/pets.yaml");
      expect(error.message).toMatch(/not valid YAML/);
    });

    // Issue 32: a pointer to nothing is left dangling where its file was written, for the reader
    // to skip the operations that reach it (test/openapi/dangling-refs.test.ts); one into a file
    // written nowhere dangles under a key that names the file and the pointer.
    it("a pointer to nothing stays dangling where its file was written, or names its file when that is written nowhere", () => {
      write({ "openapi.yaml": ENTRY, "paths/pets.yaml": nested("../components/schemas/Pet.yaml#/nothing"), "components/schemas/Pet.yaml": "type: string\n" });
      expect(resolvePointer(bundle(), "/paths/~1pets/get/parameters/0")).toEqual({ $ref: "#/components/schemas/Pet/nothing" });
      write({ "paths/pets.yaml": nested("../components/schemas/Other.yaml#/nothing"), "components/schemas/Other.yaml": "type: string\n" });
      const bundled = bundle() as Record<string, unknown>;
      expect(resolvePointer(bundled, "/paths/~1pets/get/parameters/0")).toEqual({ $ref: "#/x-toolguard-not-bundled/components~1schemas~1Other.yaml/nothing" });
      expect(bundled["x-toolguard-not-bundled"]).toBeUndefined();
    });

    it("a cycle of $refs that never reaches a schema", () => {
      write({ "openapi.yaml": ENTRY, "components/schemas/Pet.yaml": "type: string\n" });
      write({ "paths/pets.yaml": nested("a.yaml#/x"), "paths/a.yaml": "$ref: b.yaml\n", "paths/b.yaml": "$ref: a.yaml\n" });
      const error = thrown(bundle);
      expect(error.location).toEqual(at);
      expect(error.message).toMatch(/circular chain of \$refs/);
      write({ "paths/pets.yaml": nested("a.yaml") });
      expect(thrown(bundle).message).toMatch(/circular chain of \$refs/);
    });

    it("a missing file referenced from the entry names the operations that use it", async () => {
      write({
        "openapi.yaml": ENTRY.replace("$ref: paths/pets.yaml", "post:\n      requestBody: { $ref: bodies/missing.yaml }"),
        "components/schemas/Pet.yaml": "type: string\n",
      });
      const error = await loadOpenApiDocument(path.join(root, "openapi.yaml"), { root }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).location).toEqual({ file: "openapi.yaml", pointer: "/paths/~1pets/post/requestBody/$ref" });
      expect((error as InputError).message).toMatch(
        /broken \$ref "bodies\/missing\.yaml" used by operation \(POST \/pets\): \$ref points to a file that does not exist/,
      );
    });

    it("a network reference with network access off", async () => {
      write({ "openapi.yaml": ENTRY, "paths/pets.yaml": "$ref: https://example.com/p.yaml\n", "components/schemas/Pet.yaml": "type: string\n" });
      await expect(loadOpenApiDocument(path.join(root, "openapi.yaml"), { root })).rejects.toThrow(/network access is off/);
    });
  });
});
