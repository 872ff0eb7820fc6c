// The last step of `npm run build`, run from dist/ (node dist/generator/speed/build-precompiled.js):
// writes dist/precompiled.json, keyed by the built code it runs as (see precompiled.ts).
import { writePrecompiled } from "./precompiled.ts";

await writePrecompiled();
