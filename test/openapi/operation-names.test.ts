// operationIds unique only per tag (deepgram/deepgram-api-specs 4ba987c, CC-BY-4.0, Fern's SDK
// method names: `list` and `get` under each tag): 40 of Deepgram's 50 operations were skipped.
// Now every operation of a shared name is named by its first tag when the tags tell them apart,
// each with a warning; a name no other shares is kept. Where the tags do not (gRPC-gateway's extra
// routes of one RPC), the clash stands as before: the first keeps the name, the rest are skipped.
import { describe, expect, it } from "vitest";
import { readOpenApi } from "../../generator/read/openapi/read-openapi.ts";

const op = (operationId: string, tags?: string[]) => ({ operationId, ...(tags ? { tags } : {}), responses: {} });

describe("names several operations share", () => {
  it("are qualified by the first tag when the tags tell them apart; an unshared name is kept", () => {
    const document = {
      openapi: "3.1.0",
      servers: [{ url: "https://api.example.com" }],
      paths: {
        "/v1/projects": { get: op("list", ["manage > v1 > projects"]) },
        "/v1/projects/{project_id}/keys": {
          parameters: [{ name: "project_id", in: "path", required: true, schema: { type: "string" } }],
          get: op("list", ["manage > v1 > projects > keys"]),
        },
        "/v1/listen": { post: op("transcribe", ["listen > v1 > media"]) },
      },
    };
    const { tools, skipped } = readOpenApi({ file: "deepgram.json", document });
    expect(skipped).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(["manage_v1_projects_list", "manage_v1_projects_keys_list", "transcribe"]);
    expect(tools[0]?.warnings).toEqual([
      'operation GET /v1/projects is named "manage_v1_projects_list", by its first tag, "manage > v1 > projects": 2 operations of the document would be tool "list" (OpenAPI requires an operationId to be unique in a document)',
    ]);
    expect(tools[2]?.warnings).toBeUndefined();
  });

  it("are not renamed when two of them share a tag: the first keeps the name, the rest are skipped naming it", () => {
    const document = {
      openapi: "3.1.0",
      servers: [{ url: "https://api.example.com" }],
      paths: { "/a": { get: op("list", ["t"]) }, "/b": { get: op("list", ["t"]) }, "/c": { get: op("list", ["u"]) } },
    };
    const { tools, skipped } = readOpenApi({ file: "api.json", document });
    expect(tools.map((tool) => tool.name)).toEqual(["list"]);
    expect(tools[0]?.warnings).toBeUndefined();
    expect(skipped.map((skip) => skip.reason)).toEqual([
      expect.stringMatching(/operation GET \/b and the operation at #\/paths\/~1a\/get both become tool "list"/),
      expect.stringMatching(/operation GET \/c and the operation at #\/paths\/~1a\/get both become tool "list"/),
    ]);
  });

  it("a qualified name another operation has already: that one is skipped naming the clash", () => {
    const document = {
      openapi: "3.1.0",
      servers: [{ url: "https://api.example.com" }],
      paths: { "/a": { get: op("list", ["x"]) }, "/b": { get: op("list", ["y"]), post: op("x_list") } },
    };
    const { tools, skipped } = readOpenApi({ file: "api.json", document });
    expect(tools.map((tool) => tool.name)).toEqual(["x_list", "y_list"]);
    expect(skipped.map((skip) => skip.reason)).toEqual([
      expect.stringMatching(/operation POST \/b and the operation at #\/paths\/~1a\/get both become tool "x_list"/),
    ]);
  });

  // halo-dev/halo 38f52f29b (GPL-3.0), `api-docs/openapi/v3_0/aggregated.json` (springdoc): one
  // document aggregates the console and the content APIs, whose operationIds differ only in case
  // (`DeleteMenu`, `deleteMenu`; five pairs). Each pair is one file and one export in the
  // generated package, so the later of each pair was skipped, though the tags tell them apart.
  it("that differ only in case are qualified by the first tag as well, saying what they share", () => {
    const byName = { name: "name", in: "path", required: true, schema: { type: "string" } };
    const document = {
      openapi: "3.0.1",
      servers: [{ url: "https://api.example.com" }],
      paths: {
        "/api/v1alpha1/menus/{name}": { delete: { ...op("deleteMenu", ["MenuV1alpha1"]), parameters: [byName] } },
        "/apis/api.console.halo.run/v1alpha1/menus/{name}": { delete: { ...op("DeleteMenu", ["MenuV1alpha1Console"]), parameters: [byName] } },
        "/apis/api.console.halo.run/v1alpha1/menus": { get: op("listMenus", ["MenuV1alpha1Console"]) },
      },
    };
    const { tools, skipped } = readOpenApi({ file: "aggregated.json", document });
    expect(skipped).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(["MenuV1alpha1_deleteMenu", "MenuV1alpha1Console_DeleteMenu", "listMenus"]);
    expect(tools[0]?.warnings).toEqual([
      'operation DELETE /api/v1alpha1/menus/{name} is named "MenuV1alpha1_deleteMenu", by its first tag, "MenuV1alpha1": 2 operations of the document would be tools "deleteMenu" and "DeleteMenu", one export name in the generated package',
    ]);
    expect(tools[2]?.warnings).toBeUndefined();
  });

  it("are qualified as before where a name in another case joins them that no tag tells apart", () => {
    const document = {
      openapi: "3.1.0",
      servers: [{ url: "https://api.example.com" }],
      paths: { "/a": { get: op("list", ["x"]) }, "/b": { get: op("list", ["y"]) }, "/c": { get: op("List") } },
    };
    const { tools, skipped } = readOpenApi({ file: "api.json", document });
    expect(skipped).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(["x_list", "y_list", "List"]);
  });
});
