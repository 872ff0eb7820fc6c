// Which `$id`s of a document are JSON Schema identifiers, for the judge's copy of it. ajv reads
// every `$id` string it finds under the document it is given (its walk enters unknown keywords
// too, so examples and `x-` values), and refuses the document when two name one resource:
// box.com repeats an example's `"$id": "01234500-..."` four times, akeneo.com a schema's
// `"$id": "https://example.com/product"` twice ("reference ... resolves to more than one
// schema"). As the vendor wrote them:
// - data (an example, an Example Object's value, an `x-` value) holds no identifier in any
//   version: it is left out of the copy, where it is only an annotation;
// - in OpenAPI 3.0 (and Swagger 2.0) a Schema Object has no `$id` keyword: dropped;
// - in OpenAPI 3.1 a schema's `$id` is an identifier and stays.
// `enum`, `const` and `default` are data too, but they validate (enum, const) and ajv's walk
// never enters them: they are kept as written. Keys of name maps (`properties`, `paths`, ...)
// are names, so a property named `$id` or `example` is kept.
import { childPlace, type Place } from "../../generator/load/data-positions.ts";

type Node = Record<string, unknown>;

/** Keys whose data the copy leaves out: annotations ajv would walk as schemas. */
function annotationData(key: string): boolean {
  return key === "example" || key === "examples" || key === "value" || key.startsWith("x-");
}

/**
 * A copy of `node` (an OpenAPI document or a part of it, at `place`) whose `$id`s are the
 * identifiers `dialect` gives it, for ajv to read.
 */
export function withSchemaIdentifiers(node: unknown, dialect: "oas30" | "2020-12", place: Place = "keywords", depth = 0): unknown {
  if (depth > 400 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((item) => withSchemaIdentifiers(item, dialect, place, depth + 1));
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    const child = childPlace(place, key, value);
    if (child === "data") {
      if (!annotationData(key)) out[key] = value;
      continue;
    }
    if (key === "$id" && place === "keywords" && dialect === "oas30") continue;
    out[key] = withSchemaIdentifiers(value, dialect, child, depth + 1);
  }
  return out;
}
