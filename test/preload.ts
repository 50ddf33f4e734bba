// Loaded before every test file (bunfig.toml [test].preload). `bun test` runs each file in a
// fresh module registry (--parallel implies --isolate), so the hook below runs after each file;
// without --parallel it runs once, after the last file, so a run still leaves nothing behind.
import { afterAll, setDefaultTimeout } from "bun:test";
import { runCleanups } from "./helpers/cleanup";

// Suites start real servers and child processes; Bun's default 5 s per test is too short on a
// busy 2-core machine. (Bun does not read a timeout from bunfig.toml.)
setDefaultTimeout(120_000);

afterAll(runCleanups);
