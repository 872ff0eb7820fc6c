// One worker process of `npm run corpus`: judges the documents it is sent, one at a time, and
// answers with each result over IPC. The parent gives each worker a bounded chunk and starts a
// fresh one for the next, so memory does not accumulate across hundreds of documents.
import { judgeDocument, warmUp } from "./judge-document.ts";
import type { ManifestEntry } from "./manifest.ts";

export type WorkerRequest = { readonly entries: readonly ManifestEntry[]; readonly typecheck: boolean };
export type WorkerMessage = { readonly started: string } | { readonly result: unknown } | { readonly done: true };

process.once("message", async (message: WorkerRequest) => {
  await warmUp();
  for (const entry of message.entries) {
    process.send!({ started: entry.id } satisfies WorkerMessage);
    // A throw here is the harness's own failure (a pinned file changed, a judge bug), reported
    // as such and never counted as toolguard's.
    const result = await judgeDocument(entry, { typecheck: message.typecheck }).catch((error: unknown) => ({
      id: entry.id,
      harnessError: String((error as Error)?.stack ?? error).slice(0, 1200),
    }));
    await new Promise<void>((resolve) => process.send!({ result } satisfies WorkerMessage, () => resolve()));
  }
  process.send!({ done: true } satisfies WorkerMessage, () => process.exit(0));
});
