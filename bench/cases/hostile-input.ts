// Figure 6, one process: hostile argument texts (bench/lib/hostile-payloads.ts) near the size
// cap, each sent to a guarded tool side by side with JSON.parse on the same text. The ratio is
// what one such call costs over reading its text; it must be a small constant, not grow with the
// size (test/hostile/growth.test.ts checks the growth). Prints one JSON line: ns and ratio per
// payload.
import { HOSTILE_PAYLOADS } from "../lib/hostile-payloads.ts";
import { hostileTool } from "../lib/hostile-tool.ts";
import { sideBySide } from "../lib/side-by-side.ts";

const SIZE = process.env["TOOLGUARD_BENCH_SMOKE"] === "1" ? 2_000 : 500_000;
const tool = await hostileTool();
let turn = 0;
const results: Record<string, { chars: number; status: string; parseNs: number; guardedNs: number; ratio: number }> = {};
for (const [name, build] of Object.entries(HOSTILE_PAYLOADS)) {
  const text = build(SIZE);
  if (text.length > 1024 * 1024) throw new Error(`${name}: ${text.length} characters is over the cap; the figure is about texts under it`);
  const status = (await tool.call(text, { turn: `check ${name}` })).status;
  const ns = await sideBySide(
    {
      parse: () => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return true;
        }
      },
      guarded: () => tool.call(text, { turn: `t${turn++}` }),
    },
    { rounds: 5, batch: 3, warmup: 1 },
  );
  const parseNs = ns.parse ?? Number.NaN;
  const guardedNs = ns.guarded ?? Number.NaN;
  results[name] = { chars: text.length, status, parseNs, guardedNs, ratio: guardedNs / parseNs };
}
console.log(JSON.stringify(results));
