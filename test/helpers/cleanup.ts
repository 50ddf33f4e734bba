// What tests made (temp folders, apps, child processes), undone after each test file by the
// preload (test/preload.ts), whether the file passed or not.
type Cleanup = () => Promise<void> | void;

const cleanups: Cleanup[] = [];

/** Registers `cleanup` to run after the current test file, in reverse order of registration. */
export function onCleanup(cleanup: Cleanup): void {
  cleanups.push(cleanup);
}

/** Runs every registered cleanup, newest first; one failing does not stop the others. */
export async function runCleanups(): Promise<void> {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} cleanup(s) failed`);
}
