// Issue 26: the line format is versioned (docs/ledger.md, "Format"), and the reader accepts every
// version written so far. Lines as each writer version wrote them, stubs and marks included, are
// read back; torn fragments are counted, never fatal; a later version is read, not dropped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entryArguments, scanLedger, type LedgerScan } from "../../templates/runtime/ledger/read.ts";
import type { LedgerEntry } from "../../templates/runtime/ledger/ledger.ts";
import { entriesOfLine, LINE_VERSIONS, parseLine } from "../../templates/runtime/ledger/read-line.ts";

const folder = mkdtempSync(path.join(tmpdir(), "toolguard-read-line-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const START = '"startedAt":"2026-12-01T10:00:00.000Z"';
/** One line of each kind the writers have written, in each version. */
const LINES = {
  v1: `{"v":1,"chain":"c1","tool":"t","turn":"a",${START},"verdict":"ok","attempts":[{"raw":"{\\"n\\":1}","errors":[],"coercions":[]}],"repairs":0}`,
  v1Arguments: `{"v":1,"chain":"c2","tool":"t","turn":"a",${START},"verdict":"ok","attempts":[{"raw":"{\\"n\\":\\"1\\"}","errors":[],"coercions":[{"path":"/n","from":"1","to":1,"rule":"type"}]}],"repairs":0,"arguments":{"n":1}}`,
  v2: `{"v":2,"chain":"c3","tool":"t","turn":"a",${START},"verdict":"ok","attempts":[{"raw":"{\\"who\\":\\"Acme\\"}","errors":[],"coercions":[],"resolutions":[{"path":"/who","text":"Acme","id":"cus_1","target":"who_id"}]}],"repairs":0,"argumentsResolved":true}`,
  oversize: `{"v":1,"chain":"c4","tool":"t","turn":"a",${START},"verdict":"ok","attempts":[],"repairs":0,"oversize":{"length":2000000,"sha256":"ab"}}`,
  unserialisable: '{"v":1,"tool":"t","turn":"a","unserialisable":"TypeError: cycle"}',
  mark: `{"v":1,"chain":"c5","tool":"t","turn":"a",${START},"verdict":"chain_store_unavailable","attempts":[],"repairs":0,"chainStore":{"unavailable":"no answer within 2000 ms"}}`,
  v3: `{"v":3,"chain":"c7","tool":"t","turn":"a",${START},"verdict":"ok","args": {"n" :1.0,"e":1e2,"s":"\\u00e9\\"","v":{"v":1}}\t}`,
  v3Resolved: `{"v":3,"chain":"c8","tool":"t","turn":"a",${START},"verdict":"ok","resolved":{"path":"/who","text":"Acme","id":"cus_1","target":"who_id"},"args":{"who":"Acme"}}`,
  later: `{"v":9,"chain":"c6","tool":"t","turn":"a",${START},"verdict":"ok","attempts":[],"repairs":0,"somethingNew":[1,2]}`,
};

describe("reading ledger lines of every version", () => {
  it("names the versions written so far", () => {
    expect(LINE_VERSIONS).toEqual([1, 2, 3]);
  });

  it("reads every kind of line, counts torn fragments and recovers an entry glued to one", async () => {
    const file = path.join(folder, "versions.jsonl");
    const torn = '{"v":1,"chain":"dead","tool":"t","tu';
    writeFileSync(file, `${Object.values(LINES).join("\n")}\n${torn}${LINES.v1}\n${torn}\n`);
    const scan: LedgerScan = { entries: 0, torn: 0 };
    const fragments: string[] = [];
    const read = [];
    for await (const entry of scanLedger(file, scan, (fragment) => fragments.push(fragment))) read.push(entry);
    expect(read.map((entry) => entry.chain ?? entry.tool)).toEqual(["c1", "c2", "c3", "c4", "t", "c5", "c7", "c8", "c6", "c1"]);
    expect(scan).toEqual({ entries: 10, torn: 2 });
    expect(fragments).toEqual([torn, torn]);
    expect(read.map((entry) => entry.v)).toEqual([1, 1, 2, 1, 1, 1, 3, 3, 9, 1]);
    // The arguments every way a version writes them.
    expect([...read.slice(0, 3), read[6], read[7]].map((entry) => entryArguments(entry as LedgerEntry))).toEqual([
      { n: 1 },
      { n: 1 },
      { who_id: "cus_1" },
      { n: 1, e: 100, s: 'é"', v: { v: 1 } },
      { who_id: "cus_1" },
    ]);
    // A resolved version-3 line reads back as the version-2 line it stands for.
    expect(read[7]).toEqual({ ...parseLine(LINES.v2), v: 3, chain: "c8" });
    // A version-3 line reads back as its clean entry, the raw text exactly the line's bytes after `"args":`.
    expect(read[6]).toEqual({
      v: 3,
      chain: "c7",
      tool: "t",
      turn: "a",
      startedAt: "2026-12-01T10:00:00.000Z",
      verdict: "ok",
      attempts: [{ raw: ' {"n" :1.0,"e":1e2,"s":"\\u00e9\\"","v":{"v":1}}\t', errors: [], coercions: [] }],
      repairs: 0,
    });
  });

  it("takes a line for an entry only when it is one whole JSON object that starts with its version", () => {
    expect(parseLine(LINES.v1)).toMatchObject({ v: 1, chain: "c1" });
    for (const text of ['{"chain":"c1"}', `${LINES.v1.slice(0, -1)}`, '{"v":1,"a":}', '{"v":1}x', "[1]"]) expect(parseLine(text)).toBeUndefined();
    // A version-3 line whose text is not one JSON value (torn inside it, or members after it) is no entry.
    expect(parseLine(`${LINES.v3.slice(0, LINES.v3.indexOf('"e"'))}}`)).toBeUndefined();
    // One with other members, before its text or after it, is read as plain JSON (a later writer's, say), never dropped.
    expect(parseLine(LINES.v3.replace("\t}", ',"x":1}'))).toMatchObject({ v: 3, x: 1, args: { n: 1 } });
    expect(parseLine(LINES.v3Resolved.replace('{"who":"Acme"}', '{"who":"Acme"},"more":3'))).toMatchObject({ v: 3, more: 3, args: { who: "Acme" } });
    expect(parseLine(LINES.v3.replace('"verdict":"ok"', '"verdict":"ok","extra":1'))).toMatchObject({ v: 3, extra: 1, args: { n: 1 } });
    expect(parseLine(LINES.v3Resolved.replace('"target":"who_id"', '"target":7'))).toMatchObject({ v: 3, resolved: { target: 7 } });
    const scan: LedgerScan = { entries: 0, torn: 0 };
    expect([...entriesOfLine("", scan, undefined)]).toEqual([]);
    expect(scan).toEqual({ entries: 0, torn: 0 });
  });
});
