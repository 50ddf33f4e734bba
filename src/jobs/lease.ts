// Work that one node at a time may do (C19, C22: several `dossier serve` nodes on one PostgreSQL
// database): a job's run, an import. On PostgreSQL it runs under a lease (the leases table,
// src/db/pg/leases.ts): taken before it starts, renewed every third of DOSSIER_LEASE (at most
// 60 s) while it runs, given back when it ends; a node killed mid-run leaves it to the others once
// the lease has passed. A SQLite store serves one process (its data folder is locked): the work
// runs at once, with no SQL added.
import type { Context } from "../context";
import { pgStoreOf } from "../db/pg/store-of";

/** Whether the lease is still sure: work checks it between steps (before a batch, before mail is
 * sent) and stops when it is not, before another node may take the work on. */
export type Held = () => boolean;

/** Runs `work` under the lease `name` for `holder`: null when another node holds it (the work did
 * not run), else what it answered. */
export async function underLease<T>(ctx: Context, holder: string, name: string, work: (held: Held) => Promise<T>): Promise<{ value: T } | null> {
  const store = pgStoreOf(ctx.store);
  if (!store) return { value: await work(() => true) };
  const ms = ctx.config.leaseMs;
  const takenAt = performance.now();
  if (!(await store.leases.take(name, holder, ms))) return null;
  // performance.now() by which the lease may have passed: set before each renewal was sent.
  let end = takenAt + ms;
  const renewal = setInterval(() => {
    const sentAt = performance.now();
    store.leases.renew([name], holder, ms).then(
      (kept) => (end = kept.length > 0 ? sentAt + ms : 0),
      () => {}, // not renewed: held() turns false as the lease runs short
    );
  }, ms / 3);
  renewal.unref?.();
  try {
    return { value: await work(() => performance.now() < end - ms / 3) };
  } finally {
    clearInterval(renewal);
    await store.leases.release([name], holder).catch(() => {});
  }
}
