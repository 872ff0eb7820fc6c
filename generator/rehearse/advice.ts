// The schema change that would help a weak message, read from the schema at the place the
// mistake is about. Each piece of advice is given only when the schema lacks what it names (an
// open object, a union without a tag, an enum whose values are not described, a field with no
// example), never as a guess: a weak case with none of these gets no advice.
import type { CorpusCase } from "./mistake-case.ts";
import { closed, deref, pointer as toPointer, propertiesOf, type Schema } from "./mistakes/schema-view.ts";
import { pointerTokens } from "../../templates/runtime/json/json-pointer.ts";

export function adviceFor(entry: CorpusCase, root: Schema): string | undefined {
  const expected = entry.expect;
  switch (expected.op) {
    case "text":
    case "mention":
      // A text that is not JSON, or a bound: the schema has nothing to add to the message.
      return undefined;
    case "move":
    case "rename": {
      const target = expected.op === "move" ? expected.to : siblingPointer(expected.path, expected.to);
      const parent = parentPointer(target);
      const holder = schemaAt(root, parent);
      if (holder?.kind === "union") return untagged(holder.schema, root, holder.at);
      if (holder !== undefined && !closed(holder.schema))
        return `close the object at ${parent || "the top level"} (additionalProperties: false): in an open object a misplaced or misspelt name is taken as a name of its own, so the message cannot say where its value belongs`;
      return undefined;
    }
    case "remove":
      // An optional field sent as null or None: the message must say "omit it"; no schema change says it better.
      return undefined;
    case "ask":
    case "set": {
      const at = schemaAt(root, expected.path);
      if (at === undefined) return undefined;
      if (at.kind === "union") return untagged(at.schema, root, at.at);
      const schema = at.schema;
      if (Array.isArray(schema.enum) && schema.enum.length > 1 && !/\S/.test(String(schema.description ?? "")))
        return `describe ${expected.path} and what each of its values means (in its description, or as oneOf of const values each with a description), so a model picks the value it means`;
      const documented = schema.examples !== undefined || schema.example !== undefined || schema.default !== undefined;
      // A missing fact, or a value whose form a format or pattern fixes: an example shows what to send.
      if (!documented && (expected.op === "ask" || schema.format !== undefined || schema.pattern !== undefined))
        return `give ${expected.path} an example (examples: [...]): the message can then show a value of the form it takes`;
      return undefined;
    }
  }
}

/** The advice for a union whose object members carry no const tag; undefined when they do. */
function untagged(union: Schema, root: Schema, at: string): string | undefined {
  const members = ((union.oneOf ?? union.anyOf) as unknown[] | undefined)?.map((member) => deref(member, root)) ?? [];
  const objects = members.filter((member): member is Schema => member !== undefined && Object.keys(propertiesOf(member)).length > 0);
  if (objects.length < 2) return undefined;
  const tagged = Object.keys(propertiesOf(objects[0] as Schema)).some((name) =>
    objects.every((member) => {
      const property = deref(propertiesOf(member)[name], root);
      return property !== undefined && (property.const !== undefined || (Array.isArray(property.enum) && property.enum.length === 1));
    }),
  );
  return tagged
    ? undefined
    : `give each member of the union at ${at || "the top level"} a property with a const value naming its kind (a tag), so the message can name the member meant and the fields it needs`;
}

/** The schema at a place; for a union, `at` is the union's own pointer (the walk stops there). */
type Place = { readonly kind: "schema" | "union"; readonly schema: Schema; readonly at: string };

/** The schema that applies at an instance pointer, through properties, items and `$ref`s; a union stops the walk. */
export function schemaAt(root: Schema, pointer: string): Place | undefined {
  let node = deref(root, root);
  const tokens = pointerTokens(pointer);
  for (const [index, token] of tokens.entries()) {
    if (node === undefined) return undefined;
    if (node.anyOf !== undefined || node.oneOf !== undefined) return { kind: "union", schema: node, at: toPointer(tokens.slice(0, index)) };
    const properties = propertiesOf(node);
    const next = Object.hasOwn(properties, token) ? properties[token] : /^\d+$/.test(token) ? node.items : undefined;
    node = deref(next, root);
  }
  if (node === undefined) return undefined;
  return { kind: node.anyOf !== undefined || node.oneOf !== undefined ? "union" : "schema", schema: node, at: pointer };
}

function parentPointer(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf("/")));
}

function siblingPointer(pointer: string, name: string): string {
  return `${parentPointer(pointer)}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}
