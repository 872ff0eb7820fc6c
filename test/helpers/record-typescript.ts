// A module hook, preloaded (`--import`) into every thread of a run, that appends each TypeScript
// module it loads to the file named by TYPESCRIPT_LOG: how the tests show a run needed no compiler.
export const RECORD_TYPESCRIPT = `
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (/\\/node_modules\\/(ts-morph|@ts-morph|typescript)\\/.*\\.[cm]?js$/.test(resolved.url)) appendFileSync(process.env.TYPESCRIPT_LOG, resolved.url + "\\n");
    return resolved;
  },
});
`;
