// The judge on two classes it used to pass by: text request bodies (a tool since the reader
// takes `text/*` bodies whose schema is a string; the judge must judge them, a body with no
// schema included) and patterned strings (Twilio's Sids, Discord's snowflakes), whose instances
// the synthesizer made without the pattern, so the schema as written refused every one and the
// guard was not judged at all (Twilio's api_v2010: 10 instances judged, 855 misses).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judgeDocument, TEMP_ROOT } from "./judge-document.ts";
import { entryFor } from "./test-entry.ts";

mkdirSync(TEMP_ROOT, { recursive: true });
const dir = mkdtempSync(path.join(TEMP_ROOT, "judge-bodies-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ok = { "200": { description: "done" } };
const sid = (prefix: string) => ({ type: "string", pattern: `^${prefix}[0-9a-fA-F]{32}$`, minLength: 34, maxLength: 34 });

const document = {
  openapi: "3.0.3",
  info: { title: "patterned", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/Accounts/{AccountSid}/Calls/{CallSid}/Notes": {
      post: {
        operationId: "createCallNote",
        parameters: [
          { name: "AccountSid", in: "path", required: true, schema: sid("AC") },
          { name: "CallSid", in: "path", required: true, schema: sid("CA") },
          { name: "guild_id", in: "query", required: true, schema: { $ref: "#/components/schemas/Snowflake" } },
        ],
        requestBody: {
          required: true,
          content: { "text/plain": { schema: { type: "string", pattern: "^[A-Z][a-z]+( [a-z]+)*\\.$", maxLength: 200 } } },
        },
        responses: ok,
      },
    },
    "/notes": {
      put: { operationId: "putNote", requestBody: { required: true, content: { "text/markdown": {} } }, responses: ok },
    },
    "/phones": {
      post: {
        operationId: "addPhone",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["number", "country"],
                properties: {
                  number: { type: "string", pattern: "^\\+[1-9]\\d{1,14}$" },
                  country: { type: "string", pattern: "^[A-Z]{2}$", format: "iso-country" },
                  tags: { type: "array", items: { type: "string", pattern: "^(home|work|mobile)$" } },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
  },
  components: { schemas: { Snowflake: { type: "string", pattern: "^(0|[1-9][0-9]*)$", format: "snowflake" } } },
};

describe("text bodies and patterned strings, judged", () => {
  it("judges every tool with instances its patterns accept, and the guard accepts them", async () => {
    const result = await judgeDocument(entryFor(dir, "patterned", document), { typecheck: false });
    expect(result.status).toBe("generated");
    expect(result.tools).toBe(3);
    expect(result.oracle.unjudged).toEqual({});
    expect(result.oracle.synthesisMisses).toBe(0);
    // Each tool gets its instances: three at least (with and without optional fields, examples).
    expect(result.oracle.synthesized).toBeGreaterThanOrEqual(6);
    expect(result.oracle.falseRejectionExamples).toEqual([]);
    expect(result.oracle.falseRejections).toBe(0);
  });
});
