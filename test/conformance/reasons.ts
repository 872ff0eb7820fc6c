// Why a suite case is not a pass, in words a reader of docs/conformance.md can act on. The first
// rule whose pattern matches the case's id or the generator's message gives the reason.
const RULES: readonly (readonly [RegExp, string])[] = [
  [
    /changes what the references inside it point to/,
    "refused: a nested $id moves the base the references inside it resolve against, and toolguard resolves references against the tool's root only (dropping the $id would check the wrong definitions)",
  ],
  [
    /\/format\/.*only an annotation by default/,
    "toolguard asserts formats: the format is part of the contract the model must meet (2020-12 makes it an annotation by default)",
  ],
  [/the key "__proto__"/, 'refused: a "__proto__" key cannot be carried through JavaScript objects faithfully, and ajv skips such a property rule'],
  [
    /strict mode: /,
    "refused by ajv's strict mode, which toolguard keeps on: the schema has a keyword that asserts nothing or contradicts another (a schema defect in a tool)",
  ],
  [/enum must have non-empty array/, "refused: an empty enum accepts nothing, a schema defect in a tool"],
  [/pattern .* is refused/, "refused: the pattern uses syntax the linear-time engine (RE2) cannot express"],
  [/network access is off/, "the $ref leaves the schema root (an absolute $id or URI), and toolguard does not reach the network unless configured"],
  [
    /is an anchor|Invalid \$ref pointer|unknown keyword "\$anchor"|resolves to more than one schema|can't resolve reference|does not exist|malformed percent-encoding|no schema with key or ref/,
    "toolguard drops $id and resolves $ref only as JSON Pointers from the tool's root, so anchors, $id-relative references and custom meta-schemas are not supported",
  ],
  [/dangling \$ref: nothing at #\/\$defs\/bool/, "json-schema-ref-parser, which bundles toolguard's $refs, does not resolve a $ref to a boolean schema"],
  [/\/dynamicRef\//, "$dynamicRef needs $id-based dynamic scopes, which toolguard drops (references are JSON Pointers from the tool's root)"],
  [/\/unevaluated(Items|Properties)\//, "ajv 8's evaluation tracking for unevaluated* misses annotations from nested items, contains and if-without-then"],
  [/draft7\/ref\/ref overrides any sibling keywords/, "ajv applies keywords beside a draft-07 $ref, which draft-07 says to ignore"],
];

export function reasonFor(id: string, detail: string | undefined): string {
  for (const [pattern, reason] of RULES) if (pattern.test(id) || pattern.test(detail ?? "")) return reason;
  return "unexplained";
}
