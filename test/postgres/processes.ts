// Worker processes for the PostgreSQL tests: started with the test's Node, told when to start
// (so that they run at once), their stdout read as lines.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface Worker {
  readonly child: ChildProcess;
  /** The next line the worker prints (rejects if it exits first). */
  line(): Promise<string>;
  send(text: string): void;
  /** Resolves with the exit code (or signal) once it has exited. */
  readonly exited: Promise<number | string>;
}

export function startWorker(script: string, args: readonly string[]): Worker {
  const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let ended = false;
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next.resolve(line);
    else lines.push(line);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => {
      ended = true;
      for (const next of waiting.splice(0)) next.reject(new Error(`${script} exited (${code ?? signal}) before printing a line`));
      resolve(code ?? signal ?? -1);
    }),
  );
  return {
    child,
    exited,
    send: (text) => child.stdin?.write(`${text}\n`),
    line: () => {
      const ready = lines.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      if (ended) return Promise.reject(new Error(`${script} has exited`));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}
