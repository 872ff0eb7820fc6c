// toolguard's programmatic API: the config helper for `toolguard.config.ts`, and generation
// for build tools that drive it themselves.
export { defineConfig, loadConfig, type SchemaSetConfig, type ToolguardConfig } from "./config.ts";
export type { GeneratedPackage } from "./generate.ts";
export { generateSet } from "./speed/generate-set.ts";
export { compareWithDisk } from "./check.ts";
export { writePackage } from "./write-output.ts";
export { InputError, InputErrors, UsageError } from "./errors.ts";
export type { ToolDescription } from "./ir.ts";
export { type Advice, type AdviceKind, type AdviceOptions, schemaAdvice } from "./advice/advice.ts";
