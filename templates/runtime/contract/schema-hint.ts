// The error explainer's build-time facts about each schema location (`SchemaHint`, keyed by
// location in a tool's `HintTable`): part of the contract between the generator and the runtime
// (tool-spec.ts), which the generator writes as plain data and a failed call reads, so that no
// failure walks the schema.
import type { JsonValue } from "./json-value.ts";

/**
 * What the error explainer may say about one schema location, computed at build time so that
 * a failed call never walks the schema. Keyed in `HintTable` by the location's schema path as
 * ajv reports it (`#/properties/currency`), without the failing keyword.
 */
export interface SchemaHint {
  /** The JSON types accepted here, as the schema names them. */
  readonly types?: readonly string[];
  /** The allowed values, when the set is small enough to list (enum, const). */
  readonly allowed?: readonly JsonValue[];
  /** Near misses: a normalised spelling (trimmed, lower-cased) to the value it most likely meant. */
  readonly nearMisses?: Readonly<Record<string, JsonValue>>;
  /** One canonical value to show when the set of allowed values is too large to list. */
  readonly example?: JsonValue;
  /** The `format` asserted here, if any. */
  readonly format?: string;
  /** The property names an object here accepts (for unknown-key errors). */
  readonly properties?: readonly string[];
  /** The property names an object here declares though it accepts others too: a misspelt required name is told from a declared one. */
  readonly declared?: readonly string[];
  /** The schema's description of each property, for missing-required errors. */
  readonly propertyDescriptions?: Readonly<Record<string, string>>;
  /** A canonical example of each property, for missing-required errors. */
  readonly propertyExamples?: Readonly<Record<string, JsonValue>>;
  /**
   * The `anyOf`/`oneOf` here is discriminated: every branch is an object that requires
   * `property`, and each of its string values selects one branch (in the union's order).
   */
  readonly discriminator?: {
    readonly property: string;
    readonly branches: readonly { readonly values: readonly string[] }[];
  };
  /**
   * A `oneOf`'s tag that no branch requires (each branch declares it with its own string
   * values): read when a value fits more than one branch, to say which tag picks one, and when
   * a value holds it with one branch's value, to report that branch's errors.
   */
  readonly optionalTag?: {
    readonly property: string;
    readonly branches: readonly { readonly values: readonly string[] }[];
  };
  /**
   * Spellings within one edit of an allowed string value (or, for an object, of an accepted
   * property name), after normalising: each key is the normal form with at most one character
   * deleted, mapped to the value(s) it comes from (see explain/spelling.ts).
   */
  readonly spellings?: Readonly<Record<string, string | readonly string[]>>;
  /**
   * Names this object does not accept but a nearby object does: the name to a relative JSON
   * Pointer from this object to where it belongs (`body/title`, or `../owner` one level up).
   */
  readonly moves?: Readonly<Record<string, string>>;
  /**
   * Names `moves` leaves out because two or three places equally near declare them (`id` in
   * `body`: the path parameter `../id`, or `items/0/id`): each with those places, as `moves`
   * writes them. The call tells which is free; a place holding a value already is not the one.
   */
  readonly moveChoices?: Readonly<Record<string, readonly string[]>>;
  /**
   * Per required property, where inside this object's nested objects a model may have put it
   * instead (`org` sent inside `body`): relative JSON Pointers, none of them a place it belongs.
   */
  readonly misplaced?: Readonly<Record<string, readonly string[]>>;
  /**
   * An object here that must hold some field (`minProperties`): of the names it declares, those
   * no object holding it declares. Sent beside it while it is sent empty, such a name belongs in it.
   */
  readonly sentAbove?: readonly string[];
  /** Per required property, the words of its description another name for it may be (`head`: branch). */
  readonly aliases?: Readonly<Record<string, readonly string[]>>;
  /** Per required property, the only value it may take (a `const`, or an `enum` of one). */
  readonly propertyValues?: Readonly<Record<string, JsonValue>>;
  /** An array here whose items are a bare scalar type with no other rule: a single such value may be offered in brackets. */
  readonly itemType?: string;
  /**
   * An object here (or a list of them) only wraps one plain text, every other required field
   * fixed: the wrapper with `""` at `at`, so a text sent alone can be offered wrapped.
   */
  readonly textWrapper?: {
    readonly template: JsonValue;
    readonly at: readonly string[];
    readonly list?: true;
    readonly minLength?: number;
    readonly maxLength?: number;
  };
  /** Numeric bounds here: a number a message offers (read from text) must lie within them. */
  readonly range?: {
    readonly minimum?: number;
    readonly maximum?: number;
    readonly exclusiveMinimum?: number;
    readonly exclusiveMaximum?: number;
    readonly multipleOf?: number;
  };
  /** The value here may be left out (its parent does not require it), so `null` means "omit it". */
  readonly optional?: true;
  /**
   * A definition required under some names and optional under others: the property names under
   * which every use is optional, so that `null` under one of them means "omit it" too.
   */
  readonly optionalAs?: readonly string[];
  /** An `anyOf`/`oneOf` here: a JSON type to the one branch that accepts values of it. */
  readonly typeBranches?: Readonly<Record<string, number>>;
  /**
   * An `anyOf`/`oneOf` here whose one string branch lists its words beside branches of other
   * types (listmonk's `per_page`: an integer, or "all"): those words. A text that is none of them
   * may carry another branch's value (`"+5"`), which the union's message then reads.
   */
  readonly words?: readonly string[];
  /** An `anyOf`/`oneOf` here whose every branch takes objects only: a JSON text is read against `object`. */
  readonly objectUnion?: true;
  /** An `anyOf`/`oneOf` of objects here: per branch, the properties it requires. */
  readonly branchRequired?: readonly (readonly string[])[];
  /**
   * Of the names `branchRequired` lists, those no object holding this union declares: sent
   * beside the union's object instead of in it (Cloudinary's `image_url` beside `request`), such
   * a name belongs in it.
   */
  readonly branchRequiredAbove?: readonly string[];
  /** An `anyOf`/`oneOf` of objects here: a property name only one branch knows, to that branch. */
  readonly memberKeys?: Readonly<Record<string, number>>;
  /** An `anyOf`/`oneOf` of string values and patterns here: the patterns a text may match instead of a listed value. */
  readonly patterns?: readonly string[];
  /**
   * A definition of listed values that properties `$ref`: those properties' locations. Its errors
   * are reported here, so the fields beside each use (a sibling's values) are found through them.
   */
  readonly referredAt?: readonly string[];
}

export type HintTable = Readonly<Record<string, SchemaHint>>;
