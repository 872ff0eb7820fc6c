// Making SIGTERM and SIGINT keep the ledger. By default Node ends the process on these signals
// without running any JavaScript, so entries still queued are lost; an application that wants
// them written installs these hooks (installing a handler is a choice about how the process
// exits, which is why the runtime never does it on its own).
import type { JsonlFileSink } from "./ledger-jsonl.ts";

/** The signals that end a process by default and can be handled. */
export type ExitSignal = "SIGTERM" | "SIGINT" | "SIGHUP" | "SIGQUIT" | "SIGUSR2";

/**
 * On each of `signals`, writes every queued entry of `sinks` synchronously, then ends the
 * process as the signal would have (the handler removes itself and raises the signal again).
 * Returns a function that removes the hooks. Use it only where nothing else handles these
 * signals; an application with its own shutdown should call `await sink.close()` there instead.
 */
export function flushLedgerOnSignals(sinks: readonly Pick<JsonlFileSink, "flushSync">[], signals: readonly ExitSignal[] = ["SIGTERM", "SIGINT"]): () => void {
  const handlers = signals.map((signal) => {
    const handler = (): void => {
      for (const sink of sinks) sink.flushSync();
      for (const [name, installed] of handlers) process.removeListener(name, installed);
      process.kill(process.pid, signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [name, installed] of handlers) process.removeListener(name, installed);
  };
}
