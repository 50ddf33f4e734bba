// The sweep of CVs on S3 as a job of the runner (C19: "at start and hourly"): its first run is the
// runner's at start, then once an hour by the runner's clock (ctx.now), whatever the scans between.
// Import uploads that no import names (files/uploads.ts) are swept with them.
import type { Context } from "../context";
import type { Job } from "../jobs/runner";

export const SWEEP_EVERY_MS = 3_600_000;

export function filesSweepJob(ctx: Context): Job {
  let last: number | null = null;
  return {
    name: "files-sweep",
    async run(now) {
      if (last !== null && now.getTime() - last < SWEEP_EVERY_MS) return last + SWEEP_EVERY_MS;
      const swept = await ctx.files.sweep(now); // a failure: the runner tries again soon
      const uploads = await ctx.files.imports.sweep(now);
      last = now.getTime();
      if (swept.temporary + swept.orphans + swept.restored > 0) ctx.logger.log("info", "swept stray CV files", { ...swept });
      if (uploads > 0) ctx.logger.log("info", "removed uploaded import files that no import names", { files: uploads });
      return last + SWEEP_EVERY_MS;
    },
  };
}
