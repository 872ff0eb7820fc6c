// The TypeScript types of a tool's arguments, written by json-schema-to-typescript. Its
// raw-code keywords (`tsType` and friends) were refused before this point, and descriptions
// are made comment-safe here, so schema text never becomes type syntax.
import { compile } from "json-schema-to-typescript";
import type { ToolDescription } from "../ir.ts";
import { commentText } from "../safe-emit.ts";
import { mapSchemas, type Schema } from "../schema-walk.ts";
import { typeBaseName } from "./names.ts";

export function argsTypeName(tool: Pick<ToolDescription, "name">): string {
  return `${typeBaseName(tool.name)}Args`;
}

export async function emitArgumentTypes(tool: ToolDescription): Promise<string> {
  const schema = mapSchemas(tool.inputSchema, commentSafe) as Schema;
  // The root type is named after the tool, whatever the schema's title or $id says.
  delete schema.title;
  delete schema.$schema;
  const source = await compile(schema as never, argsTypeName(tool), {
    bannerComment: "",
    format: false,
    additionalProperties: true,
    declareExternallyReferenced: true,
    enableConstEnums: false,
    strictIndexSignatures: true,
    unknownAny: true,
    unreachableDefinitions: false,
    $refOptions: { resolve: { external: false, file: false, http: false } } as never,
  });
  // Line separators are legal in string literals but end `//` comments: keep them escaped.
  return source.replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function commentSafe(node: Schema): Schema {
  const out: Schema = { ...node };
  // References are local by now; an `$id` would only rename types after arbitrary text.
  delete out.$id;
  if (typeof out.description === "string") out.description = commentText(out.description);
  // Titles become type names; json-schema-to-typescript reduces them to identifier characters.
  if (typeof out.title === "string") out.title = commentText(out.title);
  return out;
}
