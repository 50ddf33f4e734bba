// Loaded before every test file (bunfig.toml [test].preload). `bun test --parallel` (npm test)
// runs each file in a fresh module registry (--parallel implies --isolate), so this module and its
// hook run again for each file; plain `bun test` loads it once, for the first file, and the hook
// runs once, after the last file, so a run still leaves nothing behind (what the files made stays
// until then: each file's apps, servers and processes sit in temporary folders on ports of their
// own, so they do not meet).
//
// The per-test timeout is not set here: Bun keeps the default timeout per test file
// (setDefaultTimeout "sets the default timeout for all tests in the current file") and resets it
// to 5 s, or --timeout, for the next file. Called here it reached every file under --parallel, but
// under plain `bun test` only the first. So every test file sets its own, first thing after its
// imports (`setDefaultTimeout(120_000)`: suites start real servers and child processes, and 5 s is
// too short on a busy 2-core machine; Bun reads no timeout from bunfig.toml), and
// test/test-files.test.ts checks that each does.
import { afterAll } from "bun:test";
import { runCleanups } from "./helpers/cleanup";

afterAll(runCleanups);
