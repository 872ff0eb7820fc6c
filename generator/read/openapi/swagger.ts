// Swagger 2.0 documents (`swagger: "2.0"`, much of what vendors still publish) are read through
// swagger2openapi, the converter the OpenAPI tooling community maintains (Mermade's oas-kit),
// and then exactly as an OpenAPI 3.0 document: the same reader, the same translation, the same
// skips. The summary says each document was converted, since the pointers in its skip reasons
// point into the converted document where the two differ (a body parameter becomes
// `requestBody`, `definitions` becomes `components/schemas`).
import { createRequire } from "node:module";
import { InputError, InputErrors } from "../../errors.ts";

/** The converter's version, as pinned in package.json; named in the summary note. */
export const CONVERTER = "swagger2openapi 7.0.8";

/** Whether a parsed document is meant as Swagger (it has a top-level `swagger` field). */
export function isSwaggerDocument(document: unknown): boolean {
  return document !== null && typeof document === "object" && !Array.isArray(document) && "swagger" in document;
}

interface Converter {
  convertObj(swagger: unknown, options: Record<string, unknown>): Promise<{ openapi: unknown }>;
}

/**
 * The OpenAPI 3.0 document for a Swagger 2.0 one (already bundled: its `$ref`s are internal).
 * Anything but version 2.0, and anything the converter refuses, is an input error that says
 * the file is Swagger.
 */
export async function convertSwagger(file: string, document: unknown): Promise<unknown> {
  const version = (document as { swagger?: unknown }).swagger;
  if (version !== "2.0") {
    throw new InputError(
      { file, pointer: "/swagger" },
      `a Swagger document of version ${JSON.stringify(version)}: toolguard reads Swagger 2.0 (converted to OpenAPI 3.0) and OpenAPI 3.0, 3.1 and 3.2`,
      'write `swagger: "2.0"` if the document is Swagger 2.0, or convert it to OpenAPI 3.x',
    );
  }
  // Loaded on first use: only Swagger documents pay for the converter.
  const converter = createRequire(import.meta.url)("swagger2openapi") as Converter;
  try {
    // patch: mend the small errors the converter knows (as its CLI does); warnOnly: a construct
    // it cannot convert stays as it is, for the reader to skip with its reason; no resolving:
    // the document is already bundled, and the converter must not reach the network or disk.
    const result = await converter.convertObj(structuredClone(document), {
      patch: true,
      warnOnly: true,
      resolve: false,
      resolveInternal: false,
      direct: false,
    });
    return result.openapi;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new InputError(
      { file, pointer: "" },
      `this Swagger 2.0 document could not be converted to OpenAPI 3.0 (${CONVERTER}): ${message.split("\n", 1)[0]}`,
      "correct the Swagger document where the message points, or convert it to OpenAPI 3.x yourself and generate from that",
    );
  }
}

/** The one summary line for the set's converted documents. */
export function convertedNote(files: readonly string[]): string {
  const shown = `${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more` : ""}`;
  return `converted from Swagger 2.0 to OpenAPI 3.0 with ${CONVERTER}, then read as OpenAPI: ${shown}; pointers in ${files.length === 1 ? "its" : "their"} skip reasons are into the converted document`;
}

/** An error in the converted document, said to be in the Swagger file (its pointer is into the conversion). */
export function fromSwagger(error: unknown): unknown {
  const reword = (one: InputError): InputError =>
    new InputError(one.location, `in the OpenAPI 3.0 converted from this Swagger 2.0 document: ${one.message}`, one.fix);
  if (error instanceof InputError) return reword(error);
  if (error instanceof InputErrors) return new InputErrors(error.errors.map(reword));
  return error;
}
