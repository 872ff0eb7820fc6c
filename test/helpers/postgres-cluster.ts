// A throwaway PostgreSQL cluster for tests: `initdb` into a temp folder, `pg_ctl start` on a free
// port on 127.0.0.1 (and a socket in the same folder), trust authentication for one user, and
// `pg_ctl stop` plus the folder removed at the end. The server binaries come from Debian's
// `postgresql` package (/usr/lib/postgresql/<major>/bin) or PATH. initdb refuses to run as root,
// so as root the cluster runs as the `postgres` user the package creates.
//
// Without PostgreSQL the tests that need it are skipped, and say so loudly; with
// TOOLGUARD_REQUIRE_POSTGRES=1 (set by .ci/run) a missing server is a failure instead.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface Cluster {
  /** `postgres://toolguard@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown, or `immediate`: as if it crashed), keeping its data. */
  stop(mode?: "fast" | "immediate"): void;
  /** Starts it again on the same port. */
  start(): void;
  /** Stops it and removes its folder. */
  destroy(): void;
}

/** The folder holding initdb and pg_ctl, or `undefined` when PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((name) => existsSync(path.join(debian, name, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0] !== undefined) return path.join(debian, majors[0], "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) if (dir && existsSync(path.join(dir, "initdb"))) return dir;
  return undefined;
}

/** Why the PostgreSQL tests cannot run here, or `undefined` when they can. Throws when CI requires them. */
export function postgresMissing(): string | undefined {
  if (postgresBin() !== undefined) return undefined;
  const why = "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH); install it with `apt-get install postgresql`";
  if (process.env.TOOLGUARD_REQUIRE_POSTGRES === "1") throw new Error(`TOOLGUARD_REQUIRE_POSTGRES=1, but ${why}`);
  console.warn(`\n*** SKIPPED: the PostgreSQL tests did not run: ${why}. CI runs them. ***\n`);
  return why;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a new cluster; call `destroy` when done. */
export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error("PostgreSQL is not installed");
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "toolguard-pg-"));
  const data = path.join(dir, "data");
  if (root) {
    chmodSync(dir, 0o777);
    execFileSync("chown", ["postgres", dir]);
  }
  const run = (tool: string, args: string[]): void => {
    const command = path.join(bin, tool);
    if (root) execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" });
    else execFileSync(command, args, { stdio: "pipe" });
  };
  run("initdb", ["-D", data, "-U", "toolguard", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = (): void => run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "600", "start"]);
  const stop = (mode: "fast" | "immediate" = "fast"): void => run("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "600", "stop"]);
  start();
  let running = true;
  return {
    url: `postgres://toolguard@127.0.0.1:${port}/postgres`,
    port,
    stop(mode) {
      if (!running) return;
      stop(mode);
      running = false;
    },
    start() {
      if (running) return;
      start();
      running = true;
    },
    destroy() {
      try {
        if (running) stop("immediate");
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
