// Process entry of the `toolguard` command (see cli.ts for the command itself).
//
// Node's on-disk compile cache is switched on before anything heavy loads: generation loads
// TypeScript, prettier, ajv and json-schema-to-typescript, and compiling them again on every
// build was most of a small re-run. (NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any
// Node program.)
import * as nodeModule from "node:module";

// A namespace import: a named import of a function this Node lacks would fail to link.
nodeModule.enableCompileCache?.();
const { main } = await import("./cli.ts");
process.exitCode = await main(process.argv.slice(2));
