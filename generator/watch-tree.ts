// Watches every folder under a root, one non-recursive watcher per folder. Node's recursive
// watcher on Linux follows files, and loses a file that an editor saves by writing a new file
// and renaming it over the old one (`sed -i`, many editors' safe write): later saves go
// unseen. A folder watcher sees every entry that changes in it, whatever its inode.
import { type Dirent, type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import path from "node:path";

export interface TreeWatcher {
  close(): void;
}

/** Calls `changed` with the absolute path of each file or folder that changes under `root`. */
export function watchTree(root: string, changed: (file: string) => void, failed: (error: Error) => void): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();
  const add = (dir: string): void => {
    if (watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (name === null) return;
        const file = path.join(dir, name.toString());
        // A folder created (or moved in) after the start is watched from now on.
        if (isFolder(file)) addTree(file);
        changed(file);
      });
    } catch (error) {
      if (dir === root) failed(error as Error);
      return;
    }
    // A removed folder's watcher ends with an error; that folder is simply no longer watched.
    watcher.on("error", () => {
      watcher.close();
      watchers.delete(dir);
    });
    watchers.set(dir, watcher);
  };
  const addTree = (dir: string): void => {
    add(dir);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") addTree(path.join(dir, entry.name));
    }
  };
  addTree(root);
  return {
    close: () => {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory() && !path.basename(file).startsWith(".") && path.basename(file) !== "node_modules";
  } catch {
    return false;
  }
}
