// The contract between the generator and the runtime: everything a generated tool module hands
// to `defineTool`. The generator writes these values as plain data (reviewed in pull requests);
// the runtime reads them on every call, so their shapes favour cheap lookups.

import type { JsonValue } from "./json-value.ts";
import type { HintTable } from "./schema-hint.ts";

export type { JsonValue };

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

export type { HintTable, SchemaHint } from "./schema-hint.ts";

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
