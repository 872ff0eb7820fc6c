// What the rehearse tests share: the command run in a temp project, its JSON read back, and the
// order a report's cases and tools must come in.
import { copyFileSync } from "node:fs";
import path from "node:path";
import type { RehearseReport } from "../../generator/rehearse/rehearse-command.ts";
import { VERDICTS } from "../../generator/rehearse/rehearse.ts";
import { REPO, type TempProject } from "../helpers/temp-project.ts";

/** A tool whose string fields a model can send as a list of one, one of them an enum without a description. */
export const WEATHER_TOOL = {
  name: "get_weather",
  description: "The weather in a city.",
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["city", "unit"],
    properties: {
      city: { type: "string", description: "The city's name." },
      unit: { type: "string", enum: ["metric", "imperial"] },
    },
  },
};

/**
 * A project with the petstore OpenAPI fixture (set `pets`) and the weather tool (set `weather`), in
 * `tg.json`, made by `newProject` (a test file's `projectsRemovedAfterEach()`, which removes it).
 */
export function petsAndWeather(newProject: (files: Readonly<Record<string, unknown>>) => TempProject): TempProject {
  const project = newProject({
    "schemas/weather.json": WEATHER_TOOL,
    "tg.json": {
      sets: [
        { schemas: "api", out: "out/api", packageName: "pets" },
        { schemas: "schemas", out: "out/tools", packageName: "weather" },
      ],
    },
  });
  project.write("api/.keep", "");
  copyFileSync(path.join(REPO, "test/fixtures/openapi/petstore-3.0.yaml"), path.join(project.dir, "api/petstore.yaml"));
  return project;
}

export function parseReport(stdout: string): RehearseReport {
  return JSON.parse(stdout) as RehearseReport;
}

/** Where a report breaks the weakest-first order: per tool by verdict, tools by their weak cases. */
export function orderBreaks(report: RehearseReport): string[] {
  const breaks: string[] = [];
  for (const tool of report.tools) {
    const ranks = tool.cases.map((entry) => VERDICTS.indexOf(entry.verdict));
    for (let i = 1; i < ranks.length; i++) if ((ranks[i] as number) < (ranks[i - 1] as number)) breaks.push(`${tool.tool}: case ${i}`);
  }
  const weak = report.tools.map((tool) => tool.summary.missed + tool.summary.misrepaired + tool.summary.unrepaired);
  for (let i = 1; i < weak.length; i++) if ((weak[i] as number) > (weak[i - 1] as number)) breaks.push(`tool ${i}: ${report.tools[i]?.tool}`);
  return breaks;
}
