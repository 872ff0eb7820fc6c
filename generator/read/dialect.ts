// Which JSON Schema dialect a tool's input schema is written in. `$schema` is honoured; a
// schema without one is read as 2020-12, the dialect MCP and the providers document.
import { InputError, type ErrorLocation } from "../errors.ts";
import type { Dialect } from "../ir.ts";

const DIALECTS: Readonly<Record<string, Dialect>> = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft-07/schema": "draft-07",
};

export const DIALECT_URI: Readonly<Record<Dialect, string>> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema#",
};

export function dialectOf(schema: Record<string, unknown>, location: ErrorLocation): Dialect {
  const declared = schema.$schema;
  if (declared === undefined) return "2020-12";
  if (typeof declared === "string") {
    const dialect = DIALECTS[declared.replace(/#$/, "")];
    if (dialect) return dialect;
  }
  throw new InputError(
    { file: location.file, pointer: `${location.pointer}/$schema` },
    `unsupported $schema ${JSON.stringify(declared)}`,
    `use ${DIALECT_URI["2020-12"]} or ${DIALECT_URI["draft-07"]}, or leave $schema out for 2020-12`,
  );
}
