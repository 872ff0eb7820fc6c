// Failed `anyOf`/`oneOf` errors that say which of the errors before them their branches left.
//
// With `allErrors`, ajv keeps every failed branch's errors ahead of the union's own error. The
// envelope must drop them (contradictory demands: "must be one of [creation]", "must be one of
// [update]", ...), or, where one property names the branch the model meant, keep exactly that
// branch's errors. Schema paths cannot tell: a branch that is a `$ref` runs in a function of its
// own, and anything it refers to further reports paths under its own definition. So each union
// error carries, in its params:
//   branchErrors  how many errors the union collected (ajv's `trackErrors` count), all of them
//                 directly before the union's error;
//   branchStarts  per branch, where its errors begin within those (a branch ajv decided is
//                 always valid, and so never ran, has none).
// The starts are plain variables set as each branch begins; the array is built only inside the
// error, so a value that passes allocates nothing more. The explainer reads both
// (templates/runtime/explain/explain.ts).
import { _, type Name, type Ajv, type CodeKeywordDefinition, type KeywordCxt } from "ajv";
import type { Code } from "ajv/dist/compile/codegen/index.js";
import { createRequire } from "node:module";
import { AjvAssumptionError } from "./assumption.ts";

/** ajv's running error count inside every generated validator function, by ajv's own name for it. */
const ERRORS: Name = (createRequire(import.meta.url)("ajv/dist/compile/names.js") as { default: { errors: Name } }).default.errors;

/** Adds `branchErrors` and `branchStarts` to the error params of `anyOf` and `oneOf` in this Ajv instance only. */
export function countBranchErrors(ajv: Ajv): void {
  for (const keyword of ["anyOf", "oneOf"] as const) {
    // getKeyword returns the instance's own copy of the definition (ajv copies it when adding a
    // rule), so changing it leaves every other Ajv, and the keyword's order, as they were.
    const definition = ajv.getKeyword(keyword) as CodeKeywordDefinition;
    const code = definition.code;
    // Assumption 11: anyOf and oneOf are code keywords, each branch compiled through
    // `cxt.subschema`, with ajv's error count taken before the branches in `cxt.errsCount`.
    if (typeof code !== "function") throw new AjvAssumptionError(`${keyword} is a code keyword`, "its definition has no code function");
    const message = definition.error?.message;
    definition.code = (cxt: KeywordCxt, ruleType) => {
      const { gen } = cxt;
      // Both keywords track errors, so `errsCount` names the count taken before the branches.
      if (cxt.errsCount === undefined || typeof cxt.subschema !== "function")
        throw new AjvAssumptionError(`${keyword} tracks errors in cxt.errsCount and compiles branches through cxt.subschema`, "one of them is missing");
      const collected = _`${ERRORS} - ${cxt.errsCount}`;
      const branches = Array.isArray(cxt.schema) ? cxt.schema.length : 0;
      const starts = Array.from({ length: branches }, () => gen.let("branchStart"));
      const extra = { branchErrors: collected, branchStarts: _`[${joinCode(starts)}]` };
      // oneOf sets its own params (the passing branches); keep ours beside them.
      const setParams = cxt.setParams.bind(cxt);
      cxt.setParams = (params, assign) => setParams({ ...params, ...extra }, assign);
      cxt.setParams({});
      // Each branch is compiled through `subschema`, at the point in the code where it runs.
      const subschema = cxt.subschema.bind(cxt);
      cxt.subschema = (applied, valid) => {
        const start = typeof applied.schemaProp === "number" ? starts[applied.schemaProp] : undefined;
        if (start) gen.assign(start, collected);
        return subschema(applied, valid);
      };
      code(cxt, ruleType);
    };
    definition.error = {
      message: message ?? `must match a schema in ${keyword}`,
      params: ({ params }) =>
        keyword === "oneOf"
          ? _`{passingSchemas: ${params["passing"]}, branchErrors: ${params["branchErrors"]}, branchStarts: ${params["branchStarts"]}}`
          : _`{branchErrors: ${params["branchErrors"]}, branchStarts: ${params["branchStarts"]}}`,
    };
  }
}

function joinCode(parts: readonly Name[]): Code {
  return parts.reduce<Code>((list, part, index) => (index === 0 ? _`${part}` : _`${list}, ${part}`), _``);
}
