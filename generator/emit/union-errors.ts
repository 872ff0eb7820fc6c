// Failed `anyOf`/`oneOf` errors that say how many errors their branches left before them.
//
// With `allErrors`, ajv keeps every failed branch's errors ahead of the union's own error, and
// the envelope must drop them: they are contradictory demands ("must be one of [creation]",
// "must be one of [update]", ...), and the union's error already says the value matches none of
// the shapes. Branches inlined in the schema report schema paths under the union's, but a
// branch that is a `$ref` runs in its own function and reports paths relative to its target
// (`#/properties/type/enum`), which look like any sibling's. So each union error carries
// `branchErrors`: the number of errors collected since the union began (ajv's `trackErrors`
// count), and the explainer drops exactly that many before it (templates/runtime/explain.ts).
import { _, Name, type Ajv, type CodeKeywordDefinition, type KeywordCxt } from "ajv";

/** ajv's running error count inside every generated validator function. */
const ERRORS = new Name("errors");

/** Adds `branchErrors` to the error params of `anyOf` and `oneOf` in this Ajv instance only. */
export function countBranchErrors(ajv: Ajv): void {
  for (const keyword of ["anyOf", "oneOf"] as const) {
    // getKeyword returns the instance's own copy of the definition (ajv copies it when adding a
    // rule), so changing it leaves every other Ajv, and the keyword's order, as they were.
    const definition = ajv.getKeyword(keyword) as CodeKeywordDefinition;
    const code = definition.code;
    const message = definition.error?.message;
    definition.code = (cxt: KeywordCxt, ruleType) => {
      // Both keywords track errors, so `errsCount` names the count taken before the branches.
      const branchErrors = _`${ERRORS} - ${cxt.errsCount ?? 0}`;
      const setParams = cxt.setParams.bind(cxt);
      // oneOf sets its own params (the passing branches); keep the count beside them.
      cxt.setParams = (params, assign) => setParams({ ...params, branchErrors }, assign);
      cxt.setParams({});
      code(cxt, ruleType);
    };
    definition.error = {
      message: message ?? `must match a schema in ${keyword}`,
      params: ({ params }) => (keyword === "oneOf" ? _`{passingSchemas: ${params["passing"]}, branchErrors: ${params["branchErrors"]}}` : _`{branchErrors: ${params["branchErrors"]}}`),
    };
  }
}
