// The app's CSV import worker (C21): takes up, one at a time and oldest first, every import that is
// queued or running: at start (those a stop or a crash left unfinished go on after their last
// committed row) and whenever POST /imports queues one (`wake`). Stopping lets the batch in flight
// commit and leaves the import `running`, for the next start. At start, first, it deletes the
// uploaded files that no import names (a crash between an upload and its record; sweepImportFiles).
// Several nodes on one PostgreSQL database (C19): each import runs under its lease
// (`import:<id>`, src/jobs/lease.ts), so one node at a time writes its batches, and stops between
// batches once its lease is no longer sure; every node looks again each lease length. With the
// uploads in the bucket (DOSSIER_FILES_URL) any node runs it; on disk the uploaded file waits in the
// files folder of the node that took the upload: only a node that has it runs the import (another
// would find "the uploaded file is gone"), so an import left by a node killed mid-run goes on when
// that node starts again, or on a node sharing its files folder.
import { join } from "node:path";
import type { Context } from "../context";
import { newId } from "../ids";
import { underLease } from "../jobs/lease";
import { registerRunner, runImport, sweepImportFiles, unregisterRunner } from "./imports";

export class ImportRunner {
  private loop: Promise<void> | null = null;
  private wanted = false;
  private stopped = false;
  private swept = false;
  /** This runner, as the leases name their holder. */
  private readonly holder = `imports_${newId()}`;
  /** PostgreSQL: imports another node left are looked for again each lease length. */
  private readonly scan: ReturnType<typeof setInterval> | null;

  constructor(private readonly ctx: Context) {
    registerRunner(ctx, this);
    this.scan = ctx.store.engine === "postgres" ? setInterval(() => this.wake(), ctx.config.leaseMs) : null;
    this.scan?.unref?.();
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
          if (this.ctx.store.engine === "postgres" && !(await this.hasFile(organizationId, id))) continue;
          await underLease(this.ctx, this.holder, `import:${id}`, (held) =>
            runImport(this.ctx, organizationId, id, { shouldStop: () => this.stopped || !held() }),
          );
        }
      } catch (error) {
        // The store refuses writes (C11): the imports wait for a restart.
        this.ctx.logger.log("error", "the import worker stopped", { error: error instanceof Error ? error.message : String(error) });
        return;
      }
    }
  }

  /** Whether this node can read the import's uploaded file: always with the uploads in the bucket
   * (DOSSIER_FILES_URL), else when it is in this node's files folder (or none is left). */
  private async hasFile(organizationId: string, id: string): Promise<boolean> {
    if (this.ctx.files.shared) return true;
    const row = await this.ctx.store.imports.byId(organizationId, id);
    return row?.file == null || (await Bun.file(join(this.ctx.filesDir, row.file)).exists());
  }

  /** Lets the batch in flight commit, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.scan) clearInterval(this.scan);
    unregisterRunner(this.ctx);
    await this.loop;
  }
}
