// The report's pre-traffic half: the advice `generate` prints (generator/advice/), made from the
// tool schema files the findings name. The report is about traffic, so a folder that does not
// read as a schema set costs the report its advice section, never its run: generate is where
// schema files are checked, and it says what is wrong with them.
import { existsSync } from "node:fs";
import { schemaAdvice } from "../advice/advice.ts";
import { readSchemaSet } from "../read/index.ts";
import type { ReportAdvice } from "./analysis.ts";

/** The advice for the tools of the schemas folder `dir`, or none when it has none or does not read. */
export async function adviceForSchemas(dir: string): Promise<{ advice: ReportAdvice[]; unread?: string }> {
  if (!existsSync(dir)) return { advice: [] };
  try {
    const { tools } = await readSchemaSet(dir, { allowNetwork: false, strict: false });
    return { advice: schemaAdvice(tools) };
  } catch (error) {
    return { advice: [], unread: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  }
}
