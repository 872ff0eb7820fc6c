// Notices a watched folder going away (removed, renamed, a branch checked out without it) and
// coming back. A folder watcher cannot: it follows the folder's inode, so a renamed folder keeps
// reporting under its old name, and a removed one just falls silent. This asks for the path
// instead, by polling its status (one stat per interval; it sees the folder go whatever above it
// went). It also keeps the process alive while no folder watcher is left.
import { type StatsListener, unwatchFile, watchFile } from "node:fs";

/** How often the folder's path is checked. */
export const PRESENCE_INTERVAL_MS = 250;

export interface PresenceWatcher {
  close(): void;
}

/** Calls `gone` when `folder` stops being a folder at its path, and `back` when it is one again. */
export function watchPresence(folder: string, gone: () => void, back: () => void): PresenceWatcher {
  // Its own record of the state: after a failed stat, the "previous" status Node passes on
  // return is the last one that succeeded, not the missing one.
  let present = true;
  const listener: StatsListener = (current) => {
    const is = current.isDirectory();
    if (present === is) return;
    present = is;
    if (is) back();
    else gone();
  };
  watchFile(folder, { interval: PRESENCE_INTERVAL_MS, persistent: true }, listener);
  return { close: () => unwatchFile(folder, listener) };
}
