// A hand-built tool spec whose hazard walk is the generator's own, compiled in process: what the
// hazard-walk and declared-keys tests call through the runtime without generating a package.
import { Ajv2020 } from "ajv/dist/2020.js";
import { hazardWalk } from "../../generator/emit/hazard-walk.ts";
import type { HazardWalk, HttpBinding, JsonSchema, StandaloneValidator, ToolSpec } from "../../templates/runtime/contract/tool-spec.ts";
import { anyValue, shortestNumber } from "../../templates/runtime/parse/json-hazards.ts";

/** The generated hazard walk for `inputSchema`, or undefined when the schema gets none. */
export function loadWalk(inputSchema: JsonSchema): HazardWalk | undefined {
  const code = hazardWalk({ inputSchema });
  return code && (new Function("shortestNumber", "anyValue", `return ${code.text};`)(shortestNumber, anyValue) as HazardWalk);
}

/** A spec named "t" validated by ajv 2020 (all errors) with `walk` as its hazard walk, and `http` where it has one. */
export function walkedSpec(inputSchema: JsonSchema, walk: HazardWalk | undefined, http?: HttpBinding): ToolSpec {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(inputSchema) as unknown as StandaloneValidator;
  return {
    name: "t",
    description: "",
    inputSchema: inputSchema as ToolSpec["inputSchema"],
    validate,
    coercions: {},
    hints: {},
    references: {},
    hazardWalk: walk,
    ...(http === undefined ? {} : { http }),
  };
}
