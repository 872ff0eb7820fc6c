// The validator modules tools share (ajv/shared-functions.ts cuts them out of each tool's
// validator), as package files: `tools/shared/<definition>-<hash>.js`. Each tool emits the
// modules it imports, so tools are still emitted (and cached) one by one; the package keeps one
// copy of each path. Two tools that emit one path emit the same bytes, since the name holds a
// hash of the text.
import type { SharedFunctions } from "../ajv/shared-functions.ts";
import { SHARED_FOLDER } from "../ajv/shared-functions.ts";
import { contentHash, header } from "./header.ts";
import type { EmittedFile } from "./runtime.ts";

/** The package files of a tool's shared modules. */
export function sharedModuleFiles(modules: readonly SharedFunctions[]): EmittedFile[] {
  return modules.map((module) => ({
    path: `tools/${SHARED_FOLDER}/${module.file}`,
    content: header("the input schemas of the tools that import this module", contentHash(module.code)) + module.code,
  }));
}

/**
 * Keeps one copy of each shared module's text while tools arrive one by one. A tool emits every
 * module it imports, so on a large interlinked description (Elasticsearch's query DSL: one module
 * of ~900 KB imported by most of its 444 tools) the copies held until the package is written
 * outnumber every other file: each tool's copy of a path already seen is replaced by the first
 * one, and the duplicate text is left to the collector at once.
 */
export class SharedModuleCopies {
  readonly #first = new Map<string, EmittedFile>();

  /** `files` with each shared module already seen replaced by its first copy (unequal bytes are left for `withSharedModulesOnce` to stop). */
  keepFirst(files: readonly EmittedFile[]): readonly EmittedFile[] {
    return files.map((file) => {
      if (!file.path.startsWith(`tools/${SHARED_FOLDER}/`)) return file;
      const first = this.#first.get(file.path);
      if (first === undefined) this.#first.set(file.path, file);
      // The same object (a spilled copy: its text is on disk) is not read back to be compared.
      return first !== undefined && (first === file || first.content === file.content) ? first : file;
    });
  }
}

/**
 * `files` with each shared module once. The same path with other bytes would mean two different
 * modules got one name (a hash collision, or a module whose text is not all it runs): a
 * toolguard defect, stopped here rather than let one tool run another's checks. The same object
 * twice (SharedModuleCopies kept one copy) is not compared: a spilled file's text is on disk.
 */
export function withSharedModulesOnce(files: readonly EmittedFile[]): EmittedFile[] {
  const seen = new Map<string, EmittedFile>();
  const out: EmittedFile[] = [];
  for (const file of files) {
    const before = seen.get(file.path);
    if (before === undefined) {
      seen.set(file.path, file);
      out.push(file);
    } else if (!file.path.startsWith(`tools/${SHARED_FOLDER}/`) || (before !== file && before.content !== file.content)) {
      throw new Error(`toolguard defect: two tools emitted ${file.path} with different contents; report this with the schemas`);
    }
  }
  return out;
}
