// Issue 26: the line format is versioned (docs/ledger.md, "Format"), and the reader accepts every
// version written so far. Lines as each writer version wrote them, stubs and marks included, are
// read back; torn fragments are counted, never fatal; a later version is read, not dropped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entryArguments, scanLedger, type LedgerScan } from "../../templates/runtime/ledger/read.ts";
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
  later: `{"v":9,"chain":"c6","tool":"t","turn":"a",${START},"verdict":"ok","attempts":[],"repairs":0,"somethingNew":[1,2]}`,
};

describe("reading ledger lines of every version", () => {
  it("names the versions written so far", () => {
    expect(LINE_VERSIONS).toEqual([1, 2]);
  });

  it("reads every kind of line, counts torn fragments and recovers an entry glued to one", async () => {
    const file = path.join(folder, "versions.jsonl");
    const torn = '{"v":1,"chain":"dead","tool":"t","tu';
    writeFileSync(file, `${Object.values(LINES).join("\n")}\n${torn}${LINES.v1}\n${torn}\n`);
    const scan: LedgerScan = { entries: 0, torn: 0 };
    const fragments: string[] = [];
    const read = [];
    for await (const entry of scanLedger(file, scan, (fragment) => fragments.push(fragment))) read.push(entry);
    expect(read.map((entry) => entry.chain ?? entry.tool)).toEqual(["c1", "c2", "c3", "c4", "t", "c5", "c6", "c1"]);
    expect(scan).toEqual({ entries: 8, torn: 2 });
    expect(fragments).toEqual([torn, torn]);
    expect(read.map((entry) => entry.v)).toEqual([1, 1, 2, 1, 1, 1, 9, 1]);
    // The arguments every way a version writes them.
    expect(read.slice(0, 3).map(entryArguments)).toEqual([{ n: 1 }, { n: 1 }, { who_id: "cus_1" }]);
  });

  it("takes a line for an entry only when it is one whole JSON object that starts with its version", () => {
    expect(parseLine(LINES.v1)).toMatchObject({ v: 1, chain: "c1" });
    for (const text of ['{"chain":"c1"}', `${LINES.v1.slice(0, -1)}`, '{"v":1,"a":}', '{"v":1}x', "[1]"]) expect(parseLine(text)).toBeUndefined();
    const scan: LedgerScan = { entries: 0, torn: 0 };
    expect([...entriesOfLine("", scan, undefined)]).toEqual([]);
    expect(scan).toEqual({ entries: 0, torn: 0 });
  });
});
