// 2019-09's `$recursiveRef: "#"` across nested `$recursiveAnchor` scopes: when an anchored schema
// is reached from another anchored one, its `$recursiveRef` goes to the outermost (the first
// anchored schema on the `$ref` path), not to itself. Judged by ajv's 2019-09 implementation, each
// component its own schema resource (`$id`), as toolguard reads them.
import { Ajv2019 } from "ajv/dist/2019.js";
import { describe, expect, it } from "vitest";
import { prepareCompile } from "../../generator/emit/validator.ts";
import { createSchemaTranslator } from "../../generator/read/openapi/translate-schema.ts";
import { Untranslatable } from "../../generator/read/openapi/untranslatable.ts";

const schemas: Record<string, Record<string, unknown>> = {
  // Outer → Inner: Inner's `next` is an Outer when Inner is reached from Outer.
  Outer: {
    $recursiveAnchor: true,
    type: "object",
    additionalProperties: false,
    required: ["o"],
    properties: { o: { type: "integer" }, child: { $ref: "#/components/schemas/Inner" } },
  },
  Inner: {
    $recursiveAnchor: true,
    type: "object",
    additionalProperties: false,
    required: ["i"],
    properties: { i: { type: "string" }, next: { $recursiveRef: "#" }, leaf: { $ref: "#/components/schemas/Leaf" } },
  },
  // Through a schema that is not anchored: Via → Middle → Inner.
  Via: {
    $recursiveAnchor: true,
    type: "object",
    additionalProperties: false,
    required: ["v"],
    properties: { v: { type: "boolean" }, middle: { $ref: "#/components/schemas/Middle" } },
  },
  Middle: { type: "object", properties: { inner: { $ref: "#/components/schemas/Inner" } } },
  Leaf: { type: "object", properties: { n: { type: "number" } } },
  // A `$recursiveRef` in a schema that is not anchored: 2019-09 resolves it to the document.
  Unanchored: { type: "object", properties: { next: { $recursiveRef: "#" } } },
};
const document = { openapi: "3.1.0", components: { schemas } };

function toolguard(name: string): (data: unknown) => boolean {
  const translator = createSchemaTranslator(document, "2020-12");
  const schema = translator.translate(`/components/schemas/${name}`) as Record<string, unknown>;
  const root = { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema, $defs: translator.defs };
  const { ajv, compiled } = prepareCompile("2020-12", root, true);
  return ajv.compile(compiled);
}

function asWritten(name: string): (data: unknown) => boolean {
  const ajv = new Ajv2019({ strict: false });
  for (const [other, schema] of Object.entries(schemas)) {
    if (other === "Unanchored") continue;
    const text = JSON.stringify(schema).replace(/"#\/components\/schemas\/(\w+)"/g, '"https://x.test/$1"');
    ajv.addSchema({ ...JSON.parse(text), $id: `https://x.test/${other}` });
  }
  return ajv.getSchema(`https://x.test/${name}`)!;
}

const instances: Record<string, unknown[]> = {
  Outer: [
    { o: 1, child: { i: "a", next: { o: 2 } } },
    { o: 1, child: { i: "a", next: { i: "b" } } },
    { o: 1, child: { i: "a", next: { o: 2, child: { i: "c", next: { o: 3 } } } } },
    { o: 1, child: { i: "a", next: { o: 2, child: { i: "c", next: { i: "d" } } } } },
  ],
  Inner: [
    { i: "a", next: { i: "b" } },
    { i: "a", next: { o: 1 } },
    { i: "a", next: { i: "b", next: { i: "c" } }, leaf: { n: 1 } },
  ],
  Via: [
    { v: true, middle: { inner: { i: "a", next: { v: false } } } },
    { v: true, middle: { inner: { i: "a", next: { i: "b" } } } },
  ],
};

describe("$recursiveRef under nested $recursiveAnchor scopes", () => {
  it.each(Object.keys(instances))("%s: toolguard's verdicts are 2019-09's", (name) => {
    const ours = toolguard(name);
    const theirs = asWritten(name);
    for (const instance of instances[name]!) expect(ours(instance), JSON.stringify(instance)).toBe(theirs(instance));
  });

  it("the outermost anchor wins: Inner's `next` is an Outer under Outer, an Inner on its own", () => {
    expect(instances.Outer!.map(toolguard("Outer"))).toEqual([true, false, true, false]);
    expect(instances.Inner!.map(toolguard("Inner"))).toEqual([true, false, true]);
    expect(instances.Via!.map(toolguard("Via"))).toEqual([true, false]);
  });

  it("Inner is imported once per outermost anchor it is reached under; Leaf, which has no $recursiveRef, once", () => {
    const translator = createSchemaTranslator(document, "2020-12");
    translator.translate("/components/schemas/Outer");
    translator.translate("/components/schemas/Inner");
    expect(Object.keys(translator.defs).sort()).toEqual(["Inner", "Inner_2", "Leaf", "Outer"]);
  });

  it("a $recursiveRef outside any anchored schema is refused, naming where", () => {
    const error = (() => {
      try {
        toolguard("Unanchored");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(Untranslatable);
    expect((error as Untranslatable).pointer).toBe("/components/schemas/Unanchored/properties/next/$recursiveRef");
    expect((error as Untranslatable).message).toMatch(/outside any schema with \$recursiveAnchor: true/);
  });
});
