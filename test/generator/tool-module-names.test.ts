// A tool's module holds the template's code, the validator's top-level declarations and the
// tool's export in one scope; emitToolModule refuses a module where the export's name is declared
// twice, rather than let Node refuse it at import. The validator's declarations are read outside
// its braces and strings only: `const hostile = ` inside a block or a string is no declaration.
import { describe, expect, it } from "vitest";
import { emitToolModule } from "../../generator/emit/tool-module.ts";
import { compileValidator } from "../../generator/emit/validator.ts";
import { exportName } from "../../generator/emit/names.ts";
import { toolOf } from "../hostile/load-validator.ts";

const tool = toolOf({ type: "object", properties: { note: { type: "string", maxLength: 5 } } });
const validator = compileValidator(tool);
const exported = exportName(tool.name);

function emitWith(code: string) {
  return () => emitToolModule(tool, "export interface HostileArgs { note?: string }\n", { ...validator, code });
}

describe("a tool module's names", () => {
  it("refuses a validator that declares the export's name at the top level", () => {
    expect(emitWith(`${validator.code}\nconst ${exported} = 1;`)).toThrow(/shares its name/);
    expect(emitWith(`function ${exported}(data){\n}\n${validator.code}`)).toThrow(/shares its name/);
  });

  it("refuses the export's name among the names the split read (validator.declared)", () => {
    expect(() => emitToolModule(tool, "export interface HostileArgs { note?: string }\n", { ...validator, declared: ["other", exported] })).toThrow(
      /shares its name/,
    );
    expect(() => emitToolModule(tool, "export interface HostileArgs { note?: string }\n", { ...validator, declared: ["other"] })).not.toThrow();
  });

  it("reads the name inside a block or a string as no declaration", () => {
    expect(emitWith(validator.code)).not.toThrow();
    expect(emitWith(`${validator.code}\nfunction inner(){\nconst ${exported} = 1;\n}`)).not.toThrow();
    expect(emitWith(`${validator.code}\nconst text = "{\\"\\n";\nconst other = "}";`)).not.toThrow();
    expect(emitWith(`${validator.code}\nconst text = "a\\"\n${`const ${exported} = 1;`}";`)).not.toThrow();
  });
});
