// A field the object does not accept: the accepted name it misspells, else where it belongs
// (one level down, `title` beside `body` instead of inside it, or up, a path parameter sent
// inside `body`), else remove it. Both come from build-time tables; nothing is moved for the model.
import type { ArgumentError } from "../../contract/outcome.ts";
import type { AjvError, SchemaHint } from "../../contract/tool-spec.ts";
import { escapeToken, valueAt } from "../../json/json-pointer.ts";
import { noteMove } from "../grouped-moves.ts";
import { fixed, remember, type Location } from "../location.ts";
import { abbreviationOf } from "../prefix-match.ts";
import { normaliseNearMiss } from "../near-miss.ts";
import { closestName, editDistance } from "../spelling.ts";
import { childPath, isRecord, shorten } from "../text.ts";

const MAX_LISTED = 40;

export function explainUnknownField(error: AjvError, location: Location, document: unknown): ArgumentError {
  const hint = location.hint;
  const path = error.instancePath;
  const name = String(error.params["additionalProperty"]);
  const allowed = hint.properties ?? [];
  const shown = shorten(name);
  const spelt = remember(location, name, () => closestName(name, allowed));
  const object = valueAt(document, path);
  const choices = hint.moveChoices !== undefined && Object.hasOwn(hint.moveChoices, name) ? placesFor(hint, { path, name }, object, document) : undefined;
  const declaredElsewhere = (hint.moves !== undefined && Object.hasOwn(hint.moves, name)) || choices !== undefined;
  // A long name is the model's text, possibly instructions: only its shortened, quoted form
  // appears, so the path stops at the object that holds it. A name within two edits of one this
  // object declares, or one the schema declares elsewhere, is the schema's text, not free text:
  // its path is given, so the rename or move can be made (Box's 49-character ids).
  const at = shown === JSON.stringify(name) || spelt !== undefined || declaredElsewhere ? childPath(path, name) : path;
  // The names are listed up to 40 (error-hints.ts keeps more, for the spelling alone).
  const accepts = fixed(location, "", () => (allowed.length > 0 && allowed.length <= MAX_LISTED ? ` This object accepts only ${allowed.join(", ")}` : ""));
  const short = abbreviated(name, allowed, object);
  // A name the text starts or abbreviates is a closer reading than a spelling two edits away
  // (`mod` is `modelId` cut short, not `body` misspelt); one edit away the spelling stands.
  const close =
    spelt === undefined || (short !== undefined && short !== spelt && editDistance(normaliseNearMiss(name), normaliseNearMiss(spelt)) > 1) ? short : spelt;
  // A name two places declare equally near is moved when the call leaves one of them free, or
  // when the call has written the object of only one of them (Xero's `taxType` beside the
  // `salesDetails` it sends, where `purchaseDetails`, left out, takes it too).
  const target =
    hint.moves && Object.hasOwn(hint.moves, name)
      ? resolveRelative(path, hint.moves[name] as string)
      : choices?.length === 1
        ? choices[0]
        : onlyWrittenHolder(choices, path, document);
  const movable = target !== undefined && at !== path && valueAt(document, target) === undefined && canHold(document, target);
  const sent = close !== undefined && object !== null && typeof object === "object" && Object.hasOwn(object, close);
  // A near miss that is sent already is a weak reading when the name is exact one level away
  // (`content` beside `comment`, where the list's items take `content`): the move wins. So is a
  // spelling two edits away (`code` read as `body`, where the body takes `code`: an OAuth token
  // request's fields sent at the top level), and a name the text only starts (Postman's `raw`
  // read as `rawModeData`, where `dataOptions` takes `raw`); one edit away the spelling stands.
  // An abbreviation is weaker still: the exact name declared one level away is the reading
  // (Radarr's `section`, whose letters run through `supportsOnManualInteractionRequired`, sent
  // flat beside the `fields` list whose items take `section`).
  const far = movable && close !== undefined && (close !== spelt || editDistance(normaliseNearMiss(name), normaliseNearMiss(close)) > 1);
  if (close !== undefined && !(sent && movable) && !far) {
    return {
      path: at,
      rule: "additionalProperties",
      message: `unknown field ${shown}; did you mean ${JSON.stringify(close)}? ${sent ? "It is sent already: remove it." : "Rename it."}${accepts}`,
    };
  }
  if (movable) {
    return noteMove(
      { path: at, rule: "additionalProperties", message: `unknown field ${shown} at this level; it belongs at ${target}: move it to ${target}` },
      path,
      target,
    );
  }
  // Both places free: the field is the model's, not to be removed, and which place it meant is
  // its to say (no instruction the repairer would follow).
  if (choices !== undefined && choices.length > 1 && at !== path) {
    return {
      path: at,
      rule: "additionalProperties",
      message: `unknown field ${shown} at this level; it belongs at ${namedPlaces(choices)}: move it to the place you meant`,
    };
  }
  return { path: at, rule: "additionalProperties", message: `unknown field ${shown}; remove it.${accepts}` };
}

/** Free places named in a message at most; the rest are counted. */
const MAX_NAMED_PLACES = 8;

function namedPlaces(places: readonly string[]): string {
  const named = places.slice(0, MAX_NAMED_PLACES).join(" or at ");
  const rest = places.length - MAX_NAMED_PLACES;
  return rest > 0 ? `${named} (or ${rest} more ${rest === 1 ? "place" : "places"} the call leaves free)` : named;
}

/** The places of `relatives` (from the object at `path`) that hold no value yet and can take one. */
function freePlaces(path: string, relatives: readonly string[], document: unknown): string[] | undefined {
  const free: string[] = [];
  for (const relative of relatives) {
    const target = resolveRelative(path, relative);
    if (target !== undefined && valueAt(document, target) === undefined && canHold(document, target)) free.push(target);
  }
  return free.length > 0 ? free : undefined;
}

/**
 * The free places of `name`'s choices; of those, the ones whose holder takes the fields sent
 * with it, when any does (else every free place: which one is meant is the model's to say).
 */
function placesFor(hint: SchemaHint, at: { readonly path: string; readonly name: string }, object: unknown, document: unknown): string[] | undefined {
  const free = freePlaces(at.path, hint.moveChoices?.[at.name] ?? [], document);
  const fitting = free?.filter((target) => takesFellows(hint, { ...at, target }, object, document));
  return fitting !== undefined && fitting.length > 0 ? fitting : free;
}

/**
 * Whether the object that would hold `target` can take the call's other unknown fields that
 * belong there too: fields sent flat together came from one item, so a list whose item already
 * holds one of them (Kavita's `writers`, its person named, beside `name` and `role` sent flat)
 * is not where they go; only the list left out takes them all.
 */
function takesFellows(
  hint: SchemaHint,
  at: { readonly path: string; readonly name: string; readonly target: string },
  object: unknown,
  document: unknown,
): boolean {
  if (!isRecord(object)) return true;
  const holder = at.target.slice(0, at.target.lastIndexOf("/"));
  for (const key of Object.keys(object)) {
    if (key === at.name || hint.properties?.includes(key) === true) continue;
    const place = `${holder}/${escapeToken(key)}`;
    const relatives = [...(hint.moves !== undefined && Object.hasOwn(hint.moves, key) ? [hint.moves[key] as string] : []), ...(hint.moveChoices?.[key] ?? [])];
    if (relatives.some((relative) => resolveRelative(at.path, relative) === place) && valueAt(document, place) !== undefined) return false;
  }
  return true;
}

/**
 * The one place of `choices` whose holding object the call has written already beside the object
 * at `path`, if exactly one. A holder that is that object or one around it (the top level, where a
 * path parameter goes) is always there, so it tells nothing of what the call meant.
 */
function onlyWrittenHolder(choices: readonly string[] | undefined, path: string, document: unknown): string | undefined {
  if (choices === undefined) return undefined;
  const written = choices.filter((target) => {
    const holder = target.slice(0, target.lastIndexOf("/"));
    const around = holder === "" || holder === path || path.startsWith(`${holder}/`);
    return !around && isRecord(valueAt(document, holder));
  });
  return written.length === 1 ? written[0] : undefined;
}

/**
 * Whether the place that would hold `target` is an object or not there yet: a field is never
 * moved into text (a `body` sent as the text) or a number, which cannot take it.
 */
function canHold(document: unknown, target: string): boolean {
  const holder = valueAt(document, target.slice(0, target.lastIndexOf("/")));
  return holder === undefined || isRecord(holder);
}

/** The accepted name `name` abbreviates, among those the object does not hold already. */
function abbreviated(name: string, allowed: readonly string[], object: unknown): string | undefined {
  if (allowed.length === 0 || object === null || typeof object !== "object") return undefined;
  return abbreviationOf(
    name,
    allowed.filter((candidate) => !Object.hasOwn(object, candidate)),
  );
}

/** `relative` (`config/url`, `../owner`) from the object at `path`, as a JSON Pointer. */
function resolveRelative(path: string, relative: string): string | undefined {
  let base = path;
  let rest = relative;
  while (rest.startsWith("../")) {
    if (base === "") return undefined;
    base = base.slice(0, base.lastIndexOf("/"));
    rest = rest.slice(3);
  }
  return `${base}/${rest}`;
}
