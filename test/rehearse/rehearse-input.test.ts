// Bad input to `toolguard rehearse`: each gets one sentence naming what is wrong and where, exit 2
// (1 for schemas that cannot be read), and never a stack trace or a half-printed report.
import { describe, expect, it } from "vitest";
import { projectsRemovedAfterEach } from "../helpers/temp-project.ts";
import { petsAndWeather } from "./rehearse-helpers.ts";

const newProject = projectsRemovedAfterEach();

async function rehearse(...argv: string[]) {
  const project = petsAndWeather(newProject);
  return project.run("rehearse", ...argv);
}

const cases: readonly (readonly [what: string, argv: readonly string[], says: string])[] = [
  ["an unknown set", ["-c", "tg.json", "--set", "gamma"], '--set "gamma": no schema set has that name; the sets are: pets (out/api), weather (out/tools)'],
  ["an unknown tool", ["-c", "tg.json", "--tool", "get_wether"], '--tool "get_wether": no tool of the chosen sets has that name; the tools are: '],
  ["a tool of a set not chosen", ["-c", "tg.json", "--set", "pets", "--tool", "get_weather"], '--tool "get_weather": no tool of the chosen sets'],
  [
    "a tool the reader skips",
    ["-c", "tg.json", "--tool", "uploadPhoto"],
    '--tool "uploadPhoto": api/petstore.yaml has it, but it is skipped, as generate skips it: request body has no JSON media type',
  ],
  ["a missing config", ["-c", "nope.json"], "config file not found: nope.json"],
  ["a seed that is not a number", ["-c", "tg.json", "--seed", "abc"], '--seed takes a whole number from 0 to 4294967295, got "abc"'],
  ["a seed with a fraction", ["-c", "tg.json", "--seed", "1.5"], '--seed takes a whole number from 0 to 4294967295, got "1.5"'],
  ["a seed too large", ["-c", "tg.json", "--seed", "4294967296"], "--seed takes a whole number from 0 to 4294967295"],
  ["a limit of zero", ["-c", "tg.json", "--limit", "0"], '--limit takes a whole number from 1 to 100000, got "0"'],
  ["a negative limit", ["-c", "tg.json", "--limit=-3"], '--limit takes a whole number from 1 to 100000, got "-3"'],
  ["a limit with no value", ["-c", "tg.json", "--limit"], "--limit"],
  ["an option of another command", ["-c", "tg.json", "--watch"], "--watch is not an option of rehearse"],
  ["a stray argument", ["-c", "tg.json", "extra"], 'unexpected argument "extra"'],
];

describe("toolguard rehearse refuses bad input", () => {
  for (const [what, argv, says] of cases) {
    it(`${what}: exit 2, named, no stack trace`, async () => {
      const result = await rehearse(...argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(says);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it("rehearse's own options are refused by the other commands", async () => {
    const project = petsAndWeather(newProject);
    const result = await project.run("generate", "-c", "tg.json", "--seed", "3");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--seed is an option of rehearse, not of generate");
  });

  it("schemas that cannot be read: exit 1, the file named", async () => {
    const project = petsAndWeather(newProject);
    project.write("schemas/broken.json", "{ not json");
    const result = await project.run("rehearse", "-c", "tg.json", "--set", "weather");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("broken.json");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
