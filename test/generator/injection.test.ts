// Schema text never becomes code. Descriptions, titles, enum/const/default/examples values,
// property names, patterns and `$id` carry injection attempts through every emitter; the
// generated modules must load, only declare, and give the text back exactly as written.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TempProject } from "../helpers/temp-project.ts";
import { typeCheck } from "../helpers/type-check.ts";
import { withoutAdvice } from "../helpers/advice-output.ts";

const PAYLOADS = [
  "*/ globalThis.PWNED = 1; /*",
  "`; globalThis.PWNED = 2; `",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is template syntax in plain text, as a schema would carry it
  "${globalThis.PWNED = 3}",
  "\u2028globalThis.PWNED = 4;\u2029",
  '"; globalThis.PWNED = 5; process.exit(7); "',
  "'); globalThis.PWNED = 6; ('",
  "</script><script>globalThis.PWNED = 7</script>",
  "\\u0022; globalThis.PWNED = 8; //",
  "// line comment\nglobalThis.PWNED = 9;",
];
const text = PAYLOADS.join(" | ");

const schema = {
  $id: "https://example.com/x*/globalThis.PWNED=10;/*",
  title: text,
  type: "object",
  description: text,
  properties: Object.fromEntries(
    PAYLOADS.map((payload, index) => [
      payload,
      index % 3 === 0
        ? { type: "string", description: payload, title: payload, enum: [payload, `${payload}!`], default: payload, examples: [payload] }
        : index % 3 === 1
          ? { type: "string", description: payload, const: payload, pattern: "^[^`$]*\\*/.*$" }
          : { type: "object", description: payload, properties: { [payload]: { type: "number", description: payload } }, required: [payload] },
    ]),
  ),
  // Patterns become `linearRegExp("…", "u")` calls in the validator: payloads that stay valid
  // ECMAScript patterns, as property patterns and as patternProperties keys.
  patternProperties: {
    "^zz[*/ globalThis.PWNED = 11; /*]+$": { type: "string" },
    "^zz[\"'`${}); globalThis.PWNED = 12; (\u2028\u2029]+$": { type: "number", pattern: "^[\"')\u2028]*\\*/ globalThis\\.PWNED = 13; /\\*$" },
  },
  required: [PAYLOADS[0]],
  additionalProperties: false,
};

const project = new TempProject({
  "schemas/tool.json": { name: "hostile_tool", description: text, inputSchema: schema },
});
afterAll(() => project.remove());

describe("schema text never becomes code", () => {
  it("generates, and every module loads without executing anything", async () => {
    const result = await project.run("generate");
    expect(withoutAdvice(result.stderr)).toBe("");
    expect(result.code).toBe(0);
    const probe = `
const files = ${JSON.stringify(Object.keys(project.snapshot("generated")).filter((file) => file.endsWith(".js")))};
for (const file of files) await import(new URL(file, ${JSON.stringify(`file://${path.join(project.dir, "generated")}/`)}));
const { hostileTool } = await import(${JSON.stringify(`file://${path.join(project.dir, "generated/index.js")}`)});
console.log(JSON.stringify({ pwned: globalThis.PWNED ?? null, description: hostileTool.description, keys: Object.keys(hostileTool.inputSchema.properties) }));
`;
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }));
    expect(out.pwned).toBeNull();
    expect(out.description).toBe(text);
    expect(out.keys).toEqual(PAYLOADS);
  });

  it("keeps the declarations valid TypeScript", () => {
    const dts = project.read("generated/tools/hostile-tool.d.ts");
    expect(dts).not.toContain("\u2028");
    project.write("tsconfig.json", {
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, skipLibCheck: false, types: [] },
      include: ["generated/**/*.d.ts"],
    });
    expect(typeCheck(project.dir)).toBe("");
  });

  it("leaves no $id text in the validator", () => {
    // The validator is the part of the tool's module after the schema's own `$id`, a data string.
    const module = project.read("generated/tools/hostile-tool.js");
    const validator = module.slice(module.indexOf("// The standalone validator"));
    expect(validator).toContain("function validate");
    expect(validator).not.toContain("PWNED=10");
    // The payload patterns really are compiled into the module, as string arguments.
    // (Names follow the schema location, generator/ajv/stable-names.ts: `func_<what>`, `pattern_<hash>`.)
    expect(validator).toMatch(/^const func_linearRegExp = linearRegExp;$/m);
    expect(validator.match(/^const pattern_[0-9a-f]+ = func_linearRegExp\("/gm)?.length).toBeGreaterThanOrEqual(3);
  });
});
