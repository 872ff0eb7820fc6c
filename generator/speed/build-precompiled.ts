// Writes the precompiled runtime and tool template beside the generator's folder, keyed by the
// code it runs as (see precompiled.ts). Two callers:
// - the last step of `npm run build`, run from dist/ (node dist/generator/speed/build-precompiled.js),
//   writes dist/precompiled.json, which the installed package ships;
// - `prepare` (run by `npm ci` and `npm install` in a checkout) runs the TypeScript sources and
//   writes precompiled.json at the checkout's root (gitignored), so that a checkout's runs skip
//   transpiling the runtime with TypeScript too, until its sources change.
import { writePrecompiled } from "./precompiled.ts";

await writePrecompiled();
