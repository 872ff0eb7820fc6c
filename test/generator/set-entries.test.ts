// Which files a part of a split OpenAPI document references (set-entries.ts): every `$ref` to a
// file, including Example objects in `examples` maps (Redocly's split puts them in
// components/examples/, and GitHub's description uses 535 of them), but never data: a schema's
// `example` and its `examples` array, and an Example's `value`.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { referencedFiles } from "../../generator/read/set-entries.ts";

const FILE = "/spec/paths/pets.yaml";

describe("referencedFiles", () => {
  it("follows Example objects in examples maps, as a media type and components.examples hold them", () => {
    const document = {
      post: {
        requestBody: {
          content: {
            "application/json": {
              schema: { $ref: "../components/schemas/Pet.yaml" },
              examples: { cat: { $ref: "../components/examples/cat.yaml" }, inline: { value: { $ref: "data.yaml" } } },
            },
          },
        },
      },
      components: { examples: { dog: { $ref: "../components/examples/dog.yaml#/value" } } },
    };
    expect([...referencedFiles(FILE, document)].sort()).toEqual(
      ["/spec/components/examples/cat.yaml", "/spec/components/examples/dog.yaml", "/spec/components/schemas/Pet.yaml"].map((file) => path.resolve(file)),
    );
  });

  it("does not follow data: a schema's example, its examples array, an Example's value", () => {
    const document = {
      type: "object",
      example: { $ref: "a.yaml" },
      examples: [{ $ref: "b.yaml" }],
      properties: { x: { examples: { one: { value: { $ref: "c.yaml" } } } } },
    };
    expect([...referencedFiles(FILE, document)]).toEqual([]);
  });

  it("walks a schema property that happens to be called examples", () => {
    const document = {
      type: "object",
      properties: { examples: { $ref: "Ex.yaml" }, more: { type: "object", properties: { examples: { type: "array", items: { $ref: "Item.yaml" } } } } },
    };
    expect([...referencedFiles(FILE, document)].sort()).toEqual(["/spec/paths/Ex.yaml", "/spec/paths/Item.yaml"]);
  });

  it("follows a schema property, a definition or a header that happens to be called example", () => {
    const document = {
      type: "object",
      example: { $ref: "data.yaml" },
      properties: { example: { $ref: "Example.yaml" }, $ref: { $ref: "Named.yaml" } },
      $defs: { example: { type: "object", properties: { inner: { $ref: "Inner.yaml" } } } },
      components: { headers: { example: { schema: { $ref: "Header.yaml" } } }, schemas: { example: { $ref: "Schema.yaml" } } },
    };
    expect([...referencedFiles(FILE, document)].sort()).toEqual(
      ["/spec/paths/Example.yaml", "/spec/paths/Header.yaml", "/spec/paths/Inner.yaml", "/spec/paths/Named.yaml", "/spec/paths/Schema.yaml"].map((file) =>
        path.resolve(file),
      ),
    );
  });
});
