// What tests made (temp folders, apps, child processes), undone after each test file by the
// preload (test/preload.ts), whether the file passed or not. Each cleanup is kept with the test file
// that registered it (Bun.main is the file being loaded or run), so that a plain `bun test`, which
// runs every file in one module registry, undoes each file's things when the next file starts
// rather than everything at the very end.
type Cleanup = () => Promise<void> | void;

const cleanups: { file: string; cleanup: Cleanup }[] = [];

/** Registers `cleanup` to run after the current test file, in reverse order of registration. */
export function onCleanup(cleanup: Cleanup): void {
  cleanups.push({ file: Bun.main, cleanup });
}

/** Runs the registered cleanups, newest first, but those of the test file `keep` (all when it is
 * not given); one failing does not stop the others. */
export async function runCleanups(keep?: string): Promise<void> {
  const failures: unknown[] = [];
  const due = cleanups.filter((c) => c.file !== keep).reverse();
  cleanups.splice(0, cleanups.length, ...cleanups.filter((c) => c.file === keep));
  for (const { cleanup } of due) {
    try {
      await cleanup();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} cleanup(s) failed`);
}
