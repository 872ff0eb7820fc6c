// Stand-ins that make templates/tool-module.ts a real, type-checked module. The generator
// removes the import of this file and replaces each identifier with the tool's own value
// (literals through toolguard's one escaping path, names checked as identifiers).
import type { HazardWalk, HttpBinding, InputSchema, ReferenceRewrites, StandaloneValidator } from "./runtime/contract/tool-spec.ts";

export interface TOOL_ARGS {
  readonly [name: string]: unknown;
}
export type TOOL_RESOLVED_ARGS = TOOL_ARGS;
export type TOOL_REFERENCE_KINDS = never;

export declare const TOOL_NAME: string;
export declare const TOOL_DESCRIPTION: string;
export declare const TOOL_INPUT_SCHEMA: InputSchema;
export declare const TOOL_COERCIONS: Record<string, "number" | "integer" | "boolean">;
export declare const TOOL_HINTS: Record<string, never>;
export declare const TOOL_REFERENCES: Record<string, { kind: string; target: string }>;
export declare const TOOL_REWRITES: ReferenceRewrites | undefined;
export declare const TOOL_HAZARD_WALK: HazardWalk | undefined;
export declare const TOOL_HTTP: HttpBinding | undefined;
export declare const TOOL_WRITE_ONLY: readonly string[];
export declare const TOOL_VALIDATOR: StandaloneValidator;
