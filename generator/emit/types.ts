// The TypeScript types of a tool's arguments, written by json-schema-to-typescript. Its
// raw-code keywords (`tsType` and friends) were refused before this point, and descriptions
// are made comment-safe here, so schema text never becomes type syntax.
import { compile } from "json-schema-to-typescript";
import type { ToolDescription } from "../ir.ts";
import { commentText } from "../safe-emit.ts";
import { mapSchemas, type Schema } from "../schema-walk.ts";
import { typeBaseName } from "./names.ts";

export function argsTypeName(tool: ToolDescription): string {
  return `${typeBaseName(tool.name)}Args`;
}

export async function emitArgumentTypes(tool: ToolDescription): Promise<string> {
  const schema = mapSchemas(tool.inputSchema, commentSafe) as Schema;
  // The root type is named after the tool, whatever the schema's title says.
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
  return source.replace(/^export (type|interface) /gm, "export $1 ");
}

function commentSafe(node: Schema): Schema {
  if (typeof node.description !== "string" && typeof node.title !== "string") return node;
  const out: Schema = { ...node };
  if (typeof out.description === "string") out.description = commentText(out.description);
  // Titles become type names; json-schema-to-typescript reduces them to identifier characters.
  if (typeof out.title === "string") out.title = commentText(out.title);
  return out;
}
