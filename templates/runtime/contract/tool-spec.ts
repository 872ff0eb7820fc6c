// The contract between the generator and the runtime: everything a generated tool module hands
// to `defineTool`. The generator writes these values as plain data (reviewed in pull requests);
// the runtime reads them on every call, so their shapes favour cheap lookups.

/** Any value `JSON.parse` can produce. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema object as the model sees it (2020-12 or draft-07, local `$ref`s only). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * A tool's input schema: always an object schema at the root (the generator refuses anything
 * else). Typed this way, not as a bare `JsonSchema`, so that every SDK's tool type (OpenAI's
 * `parameters`, Anthropic's `input_schema`, MCP's `inputSchema`, the AI SDK's `jsonSchema()`)
 * accepts it without a cast. `properties` and `required` are mutable in the type only because
 * the SDKs' own types are; the runtime never changes them.
 */
export interface InputSchema {
  readonly type: "object";
  readonly properties?: { [name: string]: JsonSchema };
  readonly required?: string[];
  readonly [keyword: string]: unknown;
}

/** One error as ajv reports it (the fields toolguard reads). */
export interface AjvError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** An ajv standalone validator: returns whether `data` is valid and leaves errors on itself. */
export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: readonly AjvError[] | null;
}

/** What a strict coercion may turn a string into. */
export type CoercionTarget = "number" | "integer" | "boolean";

/**
 * Where the schema's type is unambiguous enough to coerce a string: JSON Pointer patterns into
 * the arguments, `*` standing for any array index, mapped to the one type the schema accepts
 * there. Paths under `anyOf`/`oneOf`/conditionals, or where a string is also accepted, are
 * never listed.
 */
export type CoercionTable = Readonly<Record<string, CoercionTarget>>;

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

/**
 * A field the model fills with something it can honestly know (a name, an email), resolved to
 * an identifier before the implementation runs. Keyed in `ReferenceTable` by the JSON Pointer of
 * the field in the arguments.
 */
export interface ReferenceField {
  /** The kind of thing referred to (`customer`); one resolver serves each kind. */
  readonly kind: string;
  /** The property the resolved identifier is written to, beside the reference field. */
  readonly target: string;
}

export type ReferenceTable = Readonly<Record<string, ReferenceField>>;

/**
 * Step 4's rewrite of the object that holds one reference field: `holder` rebuilt without the
 * field, with the field's target set to `id`, its other keys in `holder`'s own order. The
 * generator writes one per field of `ReferenceTable` (keyed alike), naming the keys the schema
 * declares there, so the engine reads and stores them directly; the result is the object the
 * runtime's `withoutField` builds.
 */
export type ReferenceRewrite = (holder: Readonly<Record<string, unknown>>, id: string) => Record<string, unknown>;

export type ReferenceRewrites = Readonly<Record<string, ReferenceRewrite>>;

/** What a `HazardWalk` adds up over a value, and the depth limit it checks against; reused from call to call. */
export interface WalkState {
  /** Keys in every object of the value. */
  keys: number;
  /** The fewest characters any JSON text spelling the value has (json-hazards.ts says how it is counted). */
  shortest: number;
  /** The guard's depth limit: values of no one type are walked against it (`anyValue`). */
  maxDepth: number;
  /**
   * Whether the value may hold a key the schema does not declare where it is. The runtime sets it
   * true before each walk; a generated walk sets it false as it starts and true again on a key it
   * was not written for (an extra key of an object it reads by a loop, any key inside a value of
   * no one type). An extra key of an object it reads by name is not seen, and leaves the walk
   * unclean (more key tokens in the text than it counted). A walk that never touches it leaves it true. False after a clean walk lets the ledger keep the
   * raw text without its secret-name scan (ledger/declared-keys.ts).
   */
  undeclared: boolean;
}

/**
 * The hazard walk the generator writes for a tool whose arguments are a typed object: it runs on
 * arguments that passed the tool's validator, so it knows the type of every declared property,
 * and reads a closed object's keys by name. `walk` adds the value's keys and shortest spelling to
 * `state` and returns false on a possible hazard (a number past 2^53, with `checkStrings` a
 * string that is not well-formed, nesting past the limit); the runtime then takes its full walk,
 * which says what the hazard is.
 */
export interface HazardWalk {
  /** How deep the schema's typed structure nests (objects and arrays): the walk serves only a depth limit at least this. */
  readonly depth: number;
  readonly walk: (value: unknown, checkStrings: boolean, state: WalkState) => boolean;
  /**
   * Whether a string sits at a place of the tool's `coercions` table: false means the coercion
   * step has nothing to do. Run before validation, on any parsed value. Absent without a table:
   * the runtime then looks over its own tree of the places (coerce/coercible-places.ts).
   */
  readonly coercible?: (value: unknown) => boolean;
  /** After validation: every path argument plain (`plainPathArguments`, read by name); absent without any. */
  readonly plainPath?: (value: unknown) => boolean;
}

/** How an OpenAPI operation's arguments map onto an HTTP request. */
export interface HttpParameter {
  /** The argument property that carries it. */
  readonly arg: string;
  /** The parameter's name on the wire. */
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly style?: string;
  readonly explode?: boolean;
  readonly required?: boolean;
  /**
   * For a parameter described by `content` instead of `schema`: its (JSON) media type. The value
   * is sent as that JSON text, then percent-encoded as its location requires (dispatch/content-parameter.ts).
   */
  readonly contentType?: string;
}

/** What a form's Encoding Object says of one field. */
export interface BodyPartEncoding {
  /** The field's media type (`application/json` sends it as JSON text). */
  readonly contentType?: string;
  /** `form` (default), `spaceDelimited`, `pipeDelimited` or `deepObject`: url-encoded forms only. */
  readonly style?: string;
  readonly explode?: boolean;
}

export interface HttpBinding {
  readonly method: string;
  /** The path template, `{name}` placeholders as in the document. */
  readonly path: string;
  readonly parameters: readonly HttpParameter[];
  /**
   * The argument property that carries the request body, if the operation has one: sent as JSON,
   * or, for `application/x-www-form-urlencoded` and `multipart/form-data`, serialised from the
   * same JSON object field by field, or, for a text media type (`text/plain`) whose schema is a
   * string, that string as it is (dispatch/form-body.ts).
   */
  readonly body?: {
    readonly arg: string;
    readonly contentType: string;
    readonly required: boolean;
    /** A form's Encoding Objects by field name, as the document gives them. */
    readonly encoding?: Readonly<Record<string, BodyPartEncoding>>;
  };
  /** The document's server URLs, first is the default. */
  readonly servers: readonly string[];
}

/** Everything a generated module passes to `defineTool`. */
export interface ToolSpec {
  /** The tool's name as providers see it. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: InputSchema;
  readonly validate: StandaloneValidator;
  readonly coercions: CoercionTable;
  readonly hints: HintTable;
  readonly references: ReferenceTable;
  /** Generated rewrites of `references`' fields; absent (a hand-written spec): the runtime's generic rebuild. */
  readonly rewrites?: ReferenceRewrites;
  /** Generated for a tool whose arguments are a typed object; absent: the runtime's full walk, before validation. */
  readonly hazardWalk?: HazardWalk;
  readonly http?: HttpBinding;
  /**
   * The schema's `writeOnly` locations, as JSON Pointer patterns (`*` = any one token), found at
   * build time; the ledger redacts them. Absent (a hand-written spec): found from `inputSchema`
   * the first time the ledger writes an entry of the tool.
   */
  readonly writeOnly?: readonly string[];
}
