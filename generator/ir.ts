// The intermediate description of one tool: the seam between readers (tool files, OpenAPI
// documents) and emitters (types, validator, tables, client, provider definitions). Readers
// only produce it; emitters only read it; neither knows the other exists.
import type { HttpBinding, JsonSchema, ReferenceTable } from "../templates/runtime/contract/tool-spec.ts";

export type Dialect = "2020-12" | "draft-07";

/** Where a tool came from, for error messages and the generated header. */
export interface SourceLocation {
  /** The file, relative to the schema root, with forward slashes. */
  readonly file: string;
  /** The JSON Pointer of the tool inside that file (`""` for the whole file). */
  readonly pointer: string;
}

export interface ToolDescription {
  /** The provider-safe tool name (`^[a-zA-Z0-9_-]{1,64}$`), unique in its set. */
  readonly name: string;
  readonly description: string;
  /**
   * The input schema the model sees and the validator enforces: self-contained (external
   * `$ref`s bundled into `$defs`/`definitions`, local ones kept so recursion stays finite),
   * with `$schema` naming its dialect.
   */
  readonly inputSchema: JsonSchema;
  readonly dialect: Dialect;
  /** Fields the model fills with a name it can know, resolved before the implementation. */
  readonly references: ReferenceTable;
  readonly source: SourceLocation;
  /** How to dispatch over HTTP, for tools read from OpenAPI operations. */
  readonly http?: HttpBinding;
  /** What the reader left out or assumed, for the generation summary (OpenAPI's unknown keywords). */
  readonly warnings?: readonly string[];
}

/** A tool an input document described but that could not be generated, and why. */
export interface SkippedTool {
  readonly name: string;
  readonly source: SourceLocation;
  readonly reason: string;
}

/** What a reader returns for one schema set. */
export interface ReadResult {
  readonly tools: readonly ToolDescription[];
  readonly skipped: readonly SkippedTool[];
  /**
   * What the summary says about the set as a whole, one line each: files it ignored, documents
   * it converted (Swagger 2.0), a set that yields no tool and why.
   */
  readonly notes?: readonly string[];
}
