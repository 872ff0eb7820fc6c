// Process entry of the `toolguard` command (see cli.ts for the command itself).
import { main } from "./cli.ts";

process.exitCode = await main(process.argv.slice(2));
