// The server's jobs (C22): overdue stages make tasks; with DOSSIER_SMTP_URL, reminders, digests and
// the mail sender too; with CVs on S3 (C19), their sweep. One runner for all of them (src/jobs/runner.ts).
import type { Context } from "../context";
import { filesSweepJob } from "../files/sweep-job";
import { digestJob, reminderJob, senderJob, type MailLinksSource } from "./mail";
import { overdueTasksJob } from "./overdue";
import { JobRunner, type Job } from "./runner";

export { JobRunner } from "./runner";

/** Starts the runner: every job runs once now (work that fell due while the server was down). */
export function startJobs(ctx: Context, links: MailLinksSource): { runner: JobRunner; stop(): Promise<void> } {
  const jobs: Job[] = [overdueTasksJob(ctx)];
  if (ctx.files.sweepsWhileServing) jobs.push(filesSweepJob(ctx));
  const sender = ctx.config.mail ? senderJob(ctx, ctx.config.mail) : null;
  if (sender) jobs.push(reminderJob(ctx, links), digestJob(ctx, links), sender);
  const runner = new JobRunner(ctx, jobs);
  runner.begin();
  return {
    runner,
    async stop() {
      await runner.stop();
      sender?.close();
    },
  };
}
