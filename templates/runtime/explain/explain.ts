// Turns ajv's errors into errors written for the model: where (JSON Pointer), which rule, what
// was received (shortened, JSON-quoted) and what to send. Every hint that needs the schema was
// computed at build time into the hint table, so explaining never walks the schema. One module
// per rule under rules/, as ajv keeps each keyword's message beside its definition.
import type { ArgumentError } from "../contract/outcome.ts";
import type { AjvError, HintTable } from "../contract/tool-spec.ts";
import { collapseAlternatives } from "./alternatives.ts";
import { finish } from "./finish.ts";
import { groupMoves } from "./grouped-moves.ts";
import { locate } from "./location.ts";
import { explainBound, explainFewProperties, explainFormat, explainItems, explainLength, explainOther } from "./rules/bounds.ts";
import { explainConst, explainEnum } from "./rules/enum.ts";
import { explainPattern } from "./rules/pattern.ts";
import { explainRequired } from "./rules/required.ts";
import { explainType } from "./rules/type.ts";
import { explainUnion } from "./rules/union.ts";
import { explainUnknownField } from "./rules/unknown-field.ts";

export { finish } from "./finish.ts";
export { shorten } from "./text.ts";

/** Most ajv errors explained for one attempt; beyond it they are only counted. */
const MAX_EXAMINED = 500;

export function explainSchemaErrors(ajvErrors: readonly AjvError[], document: unknown, hints: HintTable, maxErrors: number): ArgumentError[] {
  // A million unknown keys are a million ajv errors; only the first few hundred can ever be
  // shown, so only those are explained and the rest are counted.
  const examined = ajvErrors.length > MAX_EXAMINED ? ajvErrors.slice(0, MAX_EXAMINED) : ajvErrors;
  const errors: ArgumentError[] = [];
  for (const error of collapseAlternatives(examined, document, hints)) {
    // A missing field of an open object may also say so at each field it takes silently.
    const explained = explainOne(error, document, hints);
    if (Array.isArray(explained)) errors.push(...explained);
    else errors.push(explained as ArgumentError);
  }
  // One error (the commonest failed call) is sorted, unique and within any cap already.
  if (errors.length === 1 && maxErrors >= 1 && examined === ajvErrors) return errors;
  return finish(groupMoves(errors, maxErrors), maxErrors, ajvErrors.length - examined.length);
}

function explainOne(error: AjvError, document: unknown, hints: HintTable): ArgumentError | ArgumentError[] {
  const location = locate(error, hints);
  switch (error.keyword) {
    case "required":
      return explainRequired(error, location, document);
    case "additionalProperties":
      return explainUnknownField(error, location, document);
    case "type":
      return explainType(error, location, document);
    case "enum":
      return explainEnum(error, location, document, hints);
    case "const":
      return explainConst(error, location, document);
    case "format":
      return explainFormat(error, location, document);
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return explainBound(error, location, document);
    case "minLength":
    case "maxLength":
      return explainLength(error, location, document);
    case "minItems":
    case "maxItems":
      return explainItems(error, location, document);
    case "minProperties":
      return explainFewProperties(error, location, document);
    case "pattern":
      return explainPattern(error, location, document, hints);
    case "anyOf":
    case "oneOf":
      return explainUnion(error, location, document);
    default:
      return explainOther(error, location, document);
  }
}
