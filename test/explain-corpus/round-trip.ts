// One mistake sent to a tool built from a schema, as the literal repairer meets it: the envelope,
// the repairer's one round, and the envelope of what it sent back. Shared by the tests of shapes
// found on fresh real inputs (fresh-round*.test.ts, open-object-moves.test.ts).
import type { ToolDescription } from "../../generator/ir.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";
import { repair } from "../../generator/rehearse/literal-repairer.ts";
import { loadTool } from "../../generator/rehearse/load-tool.ts";
import type { JsonSchema } from "../../templates/runtime/contract/tool-spec.ts";

/** A tool described by its input schema alone, as a 2020-12 JSON Schema file gives it. */
export function tool(name: string, inputSchema: JsonSchema): ToolDescription {
  return { name, description: "", inputSchema, dialect: "2020-12", references: {}, source: { file: `${name}.json`, pointer: "" } };
}

/** The tool an OpenAPI description of one operation makes (`openapi` its version): `body` its request body. */
export function operationTool(operationId: string, body: unknown, schemas: Record<string, unknown>, openapi = "3.1.0"): ToolDescription {
  const document = {
    openapi,
    info: { title: operationId, version: "1" },
    paths: {
      "/call": {
        post: { operationId, requestBody: { required: true, content: { "application/json": { schema: body } } }, responses: { "200": { description: "ok" } } },
      },
    },
    components: { schemas },
  };
  const read = readOpenApi({ file: `${operationId}.json`, document });
  const found = read.tools.find((candidate) => candidate.name === operationId);
  if (found === undefined) throw new Error(`${operationId} was not read: ${JSON.stringify(read.skipped)}`);
  return found;
}

/** The envelope `sent` gets, what the literal repairer sends after reading it, and that text's envelope. */
export async function roundTrip(description: ToolDescription, sent: unknown) {
  const loaded = await loadTool(description);
  const errors = (await loaded.envelope(sent)) ?? [];
  const repaired = repair(sent, errors);
  return { errors, repaired, after: await loaded.envelope(repaired) };
}
