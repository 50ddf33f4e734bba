// The job runner (C22, round3-notes "one job runner"): durable work due at a time, found by query,
// done by one worker. Each job is a function of the clock: `run(now)` does what is due at `now` and
// answers when it wants to run again (epoch ms), or null when only the regular scan needs to look.
// The shell here keeps the timers: one per job at its next wake-up, a scan every `scanMs` (C22's
// "within a minute"), a wake-up after commits for jobs that ask for one (mail queued by a request is
// sent at once), and a first run at start, so that work that fell due while the server was down is
// done then. Each job runs alone (never two runs of one job at once) and apart from the others: a
// mail server that hangs holds the sender, not the overdue scan. Time comes from ctx.now, the
// injected clock; the timers only wake the jobs up, so tests move the clock and call `runDue()`.
// Several nodes on one PostgreSQL database (C19): each run holds the job's lease (`job:<name>`,
// lease.ts), so that a job runs on one node at a time and a reminder, a digest or a message is
// made and sent once; a node that finds the lease held tries again a second later.
import { withoutActor } from "../actor";
import type { Context } from "../context";
import { newId } from "../ids";
import { underLease, type Held } from "./lease";

export interface Job {
  name: string;
  /** Does what is due at `now`; answers when it wants to run next (epoch ms), or null. `held`
   * (when given) says whether this node still surely holds the job's lease: a run checks it
   * between batches and stops when it is false. */
  run(now: Date, held?: Held): Promise<number | null>;
  /** Run after each durable commit too (coalesced): work a request may have queued. */
  afterCommit?: boolean;
}

interface Lane {
  job: Job;
  running: Promise<void> | null;
  /** Asked to run again while it was running. */
  again: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
/** A job that failed waits this long (or the scan) before it runs again. */
const ERROR_BACKOFF_MS = 5_000;
const AGAIN_MS = 20;
/** Another node runs the job: this one asks again after this long. */
const BUSY_MS = 1000;

export class JobRunner {
  private readonly lanes: Lane[];
  private stopped = false;
  private readonly scan: ReturnType<typeof setInterval>;
  private readonly stopListening: () => void;
  private commitQueued = false;
  /** This runner, as the leases name their holder. */
  private readonly holder = `jobs_${newId()}`;

  constructor(
    private readonly ctx: Context,
    jobs: Job[],
  ) {
    this.lanes = jobs.map((job) => ({ job, running: null, again: false, timer: null }));
    this.scan = setInterval(() => {
      for (const lane of this.lanes) this.start(lane);
    }, ctx.config.jobScanMs);
    this.scan.unref?.();
    const afterCommit = this.lanes.filter((lane) => lane.job.afterCommit);
    this.stopListening =
      afterCommit.length === 0
        ? () => {}
        : ctx.store.onCommit(() => {
            if (this.commitQueued || this.stopped) return;
            this.commitQueued = true;
            setImmediate(() => {
              this.commitQueued = false;
              for (const lane of afterCommit) this.start(lane);
            });
          });
  }

  /** Runs every job once now (at start: work that fell due while the server was down). */
  begin(): void {
    for (const lane of this.lanes) this.start(lane);
  }

  /** Runs every job until each has done what is due at the clock's now: a job running already
   * finishes, then runs once more. For tests that move the clock, and for `dossier` commands. */
  async runDue(): Promise<void> {
    await Promise.all(
      this.lanes.map(async (lane) => {
        if (lane.running) await lane.running;
        if (this.stopped) return;
        this.start(lane);
        await lane.running;
      }),
    );
  }

  /** Stops the timers and waits for the runs in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.scan);
    this.stopListening();
    for (const lane of this.lanes) {
      if (lane.timer) clearTimeout(lane.timer);
      lane.timer = null;
    }
    await Promise.all(this.lanes.map((lane) => lane.running));
  }

  private start(lane: Lane): void {
    if (this.stopped) return;
    if (lane.running) {
      lane.again = true;
      return;
    }
    lane.running = this.runLane(lane).finally(() => {
      lane.running = null;
      if (lane.again && !this.stopped) {
        lane.again = false;
        this.start(lane);
      }
    });
  }

  private async runLane(lane: Lane): Promise<void> {
    let next: number | null;
    try {
      // After a failed write (C11) nothing can be recorded: the work waits for the restart.
      if (this.ctx.store.failure !== null) return;
      const ran = await underLease(this.ctx, this.holder, `job:${lane.job.name}`, (held) => withoutActor(() => lane.job.run(this.ctx.now(), held)));
      next = ran === null ? this.ctx.now().getTime() + BUSY_MS : ran.value;
    } catch (error) {
      this.ctx.logger.log("error", "a job failed", { job: lane.job.name, error: (error as Error).message });
      next = this.ctx.now().getTime() + ERROR_BACKOFF_MS;
    }
    this.arm(lane, next);
  }

  private arm(lane: Lane, at: number | null) {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    if (at === null || this.stopped) return;
    // Work still due (a batch left more): again soon, never in a tight loop.
    const wait = Math.min(MAX_TIMER_MS, Math.max(AGAIN_MS, at - this.ctx.now().getTime()));
    if (wait >= this.ctx.config.jobScanMs) return; // the scan comes first
    lane.timer = setTimeout(() => {
      lane.timer = null;
      this.start(lane);
    }, wait);
    lane.timer.unref?.();
  }
}
