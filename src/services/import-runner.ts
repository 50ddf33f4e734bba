// The app's CSV import worker (C21): takes up, one at a time and oldest first, every import that is
// queued or running: at start (those a stop or a crash left unfinished go on after their last
// committed row) and whenever POST /imports queues one (`wake`). Stopping lets the batch in flight
// commit and leaves the import `running`, for the next start. At start, first, it deletes the
// uploaded files that no import names (a crash between an upload and its record; sweepImportFiles).
import type { Context } from "../context";
import { registerRunner, runImport, sweepImportFiles, unregisterRunner } from "./imports";

export class ImportRunner {
  private loop: Promise<void> | null = null;
  private wanted = false;
  private stopped = false;
  private swept = false;

  constructor(private readonly ctx: Context) {
    registerRunner(ctx, this);
  }

  /** Looks for work now, and again after the work under way when asked while it runs. */
  wake(): void {
    if (this.stopped) return;
    this.wanted = true;
    if (this.loop) return;
    // unawaited: the loop outlives the request that woke it; stop() awaits it, and it catches its own failures.
    this.loop = this.run().finally(() => {
      this.loop = null;
      if (this.wanted) this.wake();
    });
  }

  private async run(): Promise<void> {
    while (this.wanted && !this.stopped) {
      this.wanted = false;
      try {
        if (!this.swept) {
          this.swept = true;
          const removed = await sweepImportFiles(this.ctx);
          if (removed > 0) this.ctx.logger.log("info", "removed uploaded import files that no import names", { files: removed });
        }
        for (const { organizationId, id } of await this.ctx.store.imports.unfinished()) {
          if (this.stopped) return;
          await runImport(this.ctx, organizationId, id, { shouldStop: () => this.stopped });
        }
      } catch (error) {
        // The store refuses writes (C11): the imports wait for a restart.
        this.ctx.logger.log("error", "the import worker stopped", { error: error instanceof Error ? error.message : String(error) });
        return;
      }
    }
  }

  /** Lets the batch in flight commit, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    unregisterRunner(this.ctx);
    await this.loop;
  }
}
