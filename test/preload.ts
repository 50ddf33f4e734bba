// Loaded before every test file (bunfig.toml [test].preload). `bun test --parallel` (npm test)
// runs each file in a fresh module registry (--parallel implies --isolate), so this module and its
// hooks run again for each file. Plain `bun test` loads it once, for the first file, and keeps one
// registry for all: its afterAll then runs once, after the last file. So what a file made
// (helpers/cleanup.ts) is undone when the next file's first test starts (Bun.main names the file
// being run), and what is left at the end by the afterAll. Undone only at the end, a whole plain
// run's apps, servers and processes stayed up together (2 GB) and took longer to stop than a hook
// may.
//
// The per-test timeout is not set here: Bun keeps the default timeout per test file
// (setDefaultTimeout "sets the default timeout for all tests in the current file") and resets it
// to 5 s, or --timeout, for the next file. Called here it reached every file under --parallel, but
// under plain `bun test` only the first. So every test file sets its own, first thing after its
// imports (`setDefaultTimeout(120_000)`: suites start real servers and child processes, and 5 s is
// too short on a busy 2-core machine; Bun reads no timeout from bunfig.toml), and
// test/test-files.test.ts checks that each does. This file's hooks get Bun's default, not a
// file's, so they name their own.
import { afterAll, beforeEach } from "bun:test";
import { runCleanups } from "./helpers/cleanup";

const HOOK_TIMEOUT_MS = 120_000;
let file = Bun.main;

beforeEach(async () => {
  if (Bun.main === file) return;
  file = Bun.main;
  await runCleanups(file); // the earlier files' things
}, HOOK_TIMEOUT_MS);

afterAll(() => runCleanups(), HOOK_TIMEOUT_MS);
