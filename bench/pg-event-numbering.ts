// What numbering events in commit order costs on PostgreSQL (C17, C20, C19; src/db/pg/events.ts),
// not a test. Run: node_modules/.bin/bun bench/pg-event-numbering.ts [--seconds 3] [--rounds 2]
// 16 writers in flight on a pool of 10, each transaction the shape of a unit that records one event
// (an update of a dossier row, the event's number, the event, a history row), spread over 50
// organizations, alternately (A B A B...):
//   - "sequence": the number from the identity sequence alone (allocation order: not what C20 asks);
//   - "one lock": the same after one installation-wide pg_advisory_xact_lock, so that every
//     transaction that records events takes its number, and commits, one at a time;
//   - "per organization": after the organization's numbering lock (src/db/pg/events.ts), so that
//     an organization's events are numbered in its commit order, what its feed needs.
// The PostgreSQL is the tests' (test/helpers/postgres.ts), started here and stopped at the end.
import { SQL } from "bun";
import { cpus, loadavg } from "node:os";
import { migratePg } from "../src/db/pg/migrate";
import { EVENT_NUMBERING_LOCK } from "../src/db/pg/lock-classes";

const POOL = 10;
const IN_FLIGHT = 16;
const ORGANIZATIONS = 50;
const DEADLINE_MS = 5 * 60_000;

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const seconds = Number(option("seconds", "3"));
const rounds = Number(option("rounds", "2"));
const T0 = "2026-01-01T00:00:00.000Z";

async function setUp(sql: SQL): Promise<void> {
  await migratePg(sql);
  for (let i = 0; i < ORGANIZATIONS; i++) {
    await sql`INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES (${`o${i}`}, ${`Org ${i}`}, 'growth', 120, ${T0})`;
    await sql`INSERT INTO dossiers (id, organization_id, type, name, status, created_at, updated_at)
      VALUES (${`d${i}`}, ${`o${i}`}, 'candidate', 'Bench', 'active', ${T0}, ${T0})`;
  }
}

type Variant = "sequence" | "one lock" | "per organization";

async function unit(sql: SQL, variant: Variant, n: number): Promise<void> {
  const org = `o${n % ORGANIZATIONS}`;
  const at = new Date().toISOString();
  await sql.begin(async (tx) => {
    await tx`UPDATE dossiers SET updated_at = ${at} WHERE id = ${`d${n % ORGANIZATIONS}`} AND organization_id = ${org}`;
    if (variant === "one lock") await tx`SELECT pg_advisory_xact_lock(${EVENT_NUMBERING_LOCK}::integer, 0)`;
    if (variant === "per organization") await tx`SELECT pg_advisory_xact_lock(${EVENT_NUMBERING_LOCK}::integer, hashtext(${org}))`;
    const [{ seq }] = await tx`SELECT nextval(pg_get_serial_sequence('events', 'seq'))::float8 AS seq`;
    await tx`INSERT INTO events (seq, id, organization_id, type, created_at, body, status, attempts, next_attempt_at)
      VALUES (${seq}::bigint, ${`evt_${seq}`}, ${org}, 'dossier.updated', ${at}, '{}', 'skipped', 0, NULL)`;
    await tx`INSERT INTO dossier_history (organization_id, dossier_id, at, kind, changes) VALUES (${org}, ${`d${n % ORGANIZATIONS}`}, ${at}, 'updated', '{}')`;
  });
}

async function measure(sql: SQL, variant: Variant): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let n = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await unit(sql, variant, n++);
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return done / ((performance.now() - start) / 1000);
}

const watchdog = setTimeout(() => {
  console.error(`pg-event-numbering: over ${DEADLINE_MS / 60_000} minutes, stopping`);
  process.exit(1);
}, DEADLINE_MS);
watchdog.unref();

const { freshDatabase, postgresServer } = await import("../test/helpers/postgres");
const { runCleanups } = await import("../test/helpers/cleanup");
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}; Bun ${Bun.version}`);
  await postgresServer();
  const sql = new SQL({ url: await freshDatabase("pg_event_numbering_bench"), max: POOL });
  await setUp(sql);
  console.log(`${IN_FLIGHT} writers in flight, pool ${POOL}, ${ORGANIZATIONS} organizations, ${seconds} s per figure`);
  for (let round = 1; round <= rounds; round++) {
    const free = await measure(sql, "sequence");
    const one = await measure(sql, "one lock");
    const perOrganization = await measure(sql, "per organization");
    const ratio = (x: number) => `${Math.round(x)}/s (${(x / free).toFixed(2)}×)`;
    console.log(`round ${round}: sequence ${Math.round(free)}/s, one lock ${ratio(one)}, per organization ${ratio(perOrganization)}`);
  }
  await sql.close({ timeout: 1 });
} finally {
  await runCleanups();
}
