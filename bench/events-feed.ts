// `bun bench/events-feed.ts`: the reads behind GET /events?dossier_id= (C17, C20) and behind
// `updated_since` on GET /dossiers and GET /contacts, measured in-process on a real data folder
// (the services' reads, not HTTP). The figures are in docs/performance.md ("Events feed and
// updated_since").
//
//   bun bench/events-feed.ts [--events 100000] [--rows 20000] [--rounds 50] [--data DIR] [--json]
//
// The folder gets one organization (real migrations, default flows) with `events` events over
// events/10 dossiers (a creation, updates, stage changes and notes' note.created each, in commit
// order but interleaved across dossiers as a busy day writes them), and `rows` dossiers and
// contacts created over the last two years, 1 % of them updated in the last day. Then `rounds`
// reads of each question after one unmeasured read, with the answer caches off and, as the app
// runs, no ANALYZE statistics.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openContext } from "../src/context";
import { listContacts } from "../src/services/contacts";
import { listDossiers } from "../src/services/dossiers";
import { listEvents } from "../src/services/events";
import { writeOrg } from "../src/services/orgs";

const DAY = 86_400_000;

export interface Figure {
  question: string;
  answered: number;
  medianMs: number;
  maxMs: number;
}

async function measure(question: string, rounds: number, read: () => Promise<number>): Promise<Figure> {
  let answered = await read();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    answered = await read();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  return { question, answered, medianMs: times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2, maxMs: times[times.length - 1] };
}

export async function benchEventsFeed(options: { events: number; rows: number; rounds: number; dataDir: string }): Promise<Figure[]> {
  const now = Date.now();
  const ctx = openContext({ dataDir: options.dataDir, env: { DOSSIER_LOG: "off", DOSSIER_CACHE: "off" } });
  try {
    const { sqlite } = ctx.store;
    const org = await ctx.store.write(() => writeOrg(ctx, { name: "Events bench", plan: "growth" }));
    const flow = sqlite.query<{ id: string }, [string]>(`SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default = 1`).get(org.id)!;
    const stage = sqlite.query<{ id: string }, [string]>(`SELECT id FROM stages WHERE flow_id = ? ORDER BY position LIMIT 1`).get(flow.id)!;

    // Events: ten per dossier, the dossiers' turns interleaved.
    const dossierIds = Array.from({ length: Math.max(1, Math.floor(options.events / 10)) }, () => crypto.randomUUID());
    const kinds = ["dossier.created", "dossier.updated", "note.created", "dossier.stage_changed", "dossier.updated", "note.created", "dossier.updated", "note.created", "dossier.stage_changed", "dossier.updated"];
    const firstSeq = await ctx.store.events.nextSeq(org.id);
    const recording = performance.now();
    await ctx.store.write(async () => {
      for (let i = 0; i < options.events; i++) {
        const dossierId = dossierIds[i % dossierIds.length];
        const type = kinds[Math.floor(i / dossierIds.length) % kinds.length];
        const seq = firstSeq + i;
        const id = `evt_${String(seq).padStart(26, "0")}`;
        const createdAt = new Date(now - DAY + Math.floor((i * DAY) / options.events)).toISOString();
        const data = type === "note.created" ? { id: crypto.randomUUID(), dossier_id: dossierId, content: "called back" } : { id: dossierId, name: "Ada Lovelace", status: "active" };
        const body = JSON.stringify({ id, type, created_at: createdAt, organization_id: org.id, data });
        await ctx.store.events.insert({ seq, id, organizationId: org.id, type, createdAt, body, status: "skipped", nextAttemptAt: null });
      }
    });
    const recorded: Figure = { question: `recording ${options.events} events (one transaction)`, answered: options.events, medianMs: performance.now() - recording, maxMs: performance.now() - recording };

    // Dossiers and contacts for updated_since: two years of them, 1 % changed in the last day.
    const insertDossier = sqlite.query(
      `INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, stage_entered_at, created_at, updated_at)
       VALUES (?, ?, ?, 'candidate', ?, 'active', ?, ?, ?, ?)`,
    );
    const insertContact = sqlite.query(
      `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, kind, kind_mask, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '["candidate"]', 1, ?, ?)`,
    );
    sqlite.transaction(() => {
      for (let i = 0; i < options.rows; i++) {
        const created = new Date(now - 730 * DAY + Math.floor((i * 729 * DAY) / options.rows)).toISOString();
        const updated = i % 100 === 7 ? new Date(now - Math.floor(DAY / 2)).toISOString() : created;
        insertDossier.run(crypto.randomUUID(), org.id, flow.id, `Dossier ${i}`, stage.id, created, created, updated);
        insertContact.run(crypto.randomUUID(), org.id, `Contact ${i}`, `c${i}@example.com`, `c${i}@example.com`, created, updated);
      }
    }).immediate();

    const middle = dossierIds[Math.floor(dossierIds.length / 2)];
    const since = new Date(now - DAY).toISOString();
    const page = { page: 1, perPage: 25 };
    return [
      recorded,
      await measure(`GET /events?dossier_id= (a dossier with 10 of ${options.events} events)`, options.rounds, async () => (await listEvents(ctx, org.id, { types: [], dossierId: middle, limit: 50 })).bodies.length),
      await measure(`GET /events?dossier_id= (a dossier with none of ${options.events} events)`, options.rounds, async () => (await listEvents(ctx, org.id, { types: [], dossierId: crypto.randomUUID(), limit: 50 })).bodies.length),
      await measure(`GET /dossiers?updated_since=<a day ago> (1 % of ${options.rows})`, options.rounds, async () => (await listDossiers(ctx, org.id, { ...page, updatedSince: since })).total),
      await measure(`GET /contacts?updated_since=<a day ago> (1 % of ${options.rows})`, options.rounds, async () => (await listContacts(ctx, org.id, { ...page, updatedSince: since })).total),
    ];
  } finally {
    await ctx.store.close();
  }
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const data = opt("data");
  const dataDir = data ?? mkdtempSync(join(tmpdir(), "dossier-bench-events-"));
  try {
    const figures = await benchEventsFeed({ events: Number(opt("events") ?? "100000"), rows: Number(opt("rows") ?? "20000"), rounds: Number(opt("rounds") ?? "50"), dataDir });
    if (argv.includes("--json")) console.log(JSON.stringify(figures));
    else for (const f of figures) console.log(`${f.question}: median ${f.medianMs.toFixed(2)} ms, max ${f.maxMs.toFixed(2)} ms (${f.answered} in the answer)`);
  } finally {
    if (data === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}
