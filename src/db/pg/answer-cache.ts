// What one node of a PostgreSQL store remembers of its answers (C11, C19: a client that got a 2xx
// from any node sees the write in every later read from any node, caches included). An entry keeps
// the generation of its organization's rows (src/db/generations.ts's rule, kept by drizzle-pg/0001's
// triggers whoever commits) under which it was read, and is served only to a request whose own
// admission read that same generation, in the statement that counted it (src/db/pg/counters.ts):
// a write committed on any node before the request began has moved it. A read that no admission
// preceded (a unit, the CLI, a job, a route without a key) reads the database.
//
// The generation an entry keeps is the admission's, read before the snapshot its value comes from:
// a write committed between them makes the entry stale at once (too new a value under too old a
// generation is re-read, never the other way round). LISTEN/NOTIFY would come after the 2xx: not used.
//
// A value that is not remembered is read by one statement outside the read's snapshot, on the pool:
// a remembered one comes from another snapshot anyway (one no older than the request), and the
// snapshot's BEGIN and COMMIT would double the round trips of a GET that reads nothing else. Each
// of these reads is one statement (src/db/pg/dossiers.ts byId and listRows, src/db/pg/contacts.ts
// byId): one that became two would need the read's snapshot again.
//
// A dossier that the request's admission read ahead (GET /dossiers/{id}, src/db/pg/counters.ts) is
// answered as read: that statement read it with the generations, after the request began. It is
// kept as any read record, and one remembered under the same generations is answered instead (the
// same record: its ETag is then computed once, not on every read). The statement is told the
// generation each such dossier is held under, and leaves out one held under the generation it reads
// (drizzle-pg/0016): its JSON would only be parsed to be dropped.
//
// Remembered: a dossier and a contact as a GET shows them, and GET /dossiers's answers (what
// src/db/dossiers.ts remembers on SQLite; answers with `overdue` or a contact never are). Dossiers'
// answers hold while the dossiers generation holds, contacts' while contact_generations' does
// (which links move too, for dossier_count).
import type { Static } from "@sinclair/typebox";
import type { Contact as ContactRecord } from "../../schemas/contacts";
import type { Dossier as DossierRecord } from "../../schemas/dossiers";
import { BoundedMap } from "../bounded-map";
import { rememberable, type Answer, type ListDossiersQuery } from "../dossier-page";
import type { CacheGenerations, ReadAheadDone } from "../store";
import type { EngineQueries } from "./queries";

type Dossier = Static<typeof DossierRecord>;
type Contact = Static<typeof ContactRecord>;

// As SQLite's caps (src/db/dossier-page.ts, src/db/dossiers.ts): records by count, answers by count
// and by their JSON's size; a single answer longer than MAX_ANSWER_CHARS is not remembered.
const RECORDS_REMEMBERED = 10_000;
const MAX_ANSWERS = 128;
const ANSWERS_CHARS = 4_000_000;
const MAX_ANSWER_CHARS = 256_000;

type Kind = "dossiers" | "contacts";

interface Entry<V> {
  generation: number;
  value: V;
}

/** Runs `load` outside the current read's snapshot. */
type Alone = <T>(load: () => Promise<T>) => Promise<T>;

class NodeCache<V> {
  private readonly entries: BoundedMap<string, Entry<V>>;

  constructor(
    private readonly alone: Alone,
    private readonly kind: Kind,
    maxEntries: number,
    private readonly maxWeight = Infinity,
    private readonly weigh: (value: V) => number = () => 0,
  ) {
    this.entries = new BoundedMap({ maxEntries, maxWeight });
  }

  /** The value under `key` when `seen` (the request's admission) read the generation it was kept
   * under; else what `load` reads, kept under `seen`'s generation (a null is not kept). */
  async get(seen: CacheGenerations | undefined, organizationId: string, key: string, load: () => Promise<V | null>, keep: (value: V) => V = (v) => v): Promise<V | null> {
    if (seen?.organizationId !== organizationId) return load();
    const generation = seen[this.kind];
    key = `${organizationId}\n${key}`;
    const recalled = this.recalled(key, generation);
    if (recalled !== undefined) return recalled;
    const value = await this.alone(load);
    return value === null ? null : this.kept(key, generation, value, keep);
  }

  /** `value`, read under `seen`'s generation (with it, by one statement): the one remembered under
   * that generation when there is one (its ETag is computed once), else `value`, kept. */
  remember(seen: CacheGenerations | undefined, organizationId: string, key: string, value: V, keep: (value: V) => V): V {
    if (seen?.organizationId !== organizationId) return value;
    const generation = seen[this.kind];
    key = `${organizationId}\n${key}`;
    return this.recalled(key, generation) ?? this.kept(key, generation, value, keep);
  }

  /** The generation `key`'s value is kept under, if one is (src/db/pg/counters.ts tells it to the
   * admission statement, which then leaves out a record the node holds under the generation it reads). */
  generationOf(organizationId: string, key: string): number | undefined {
    return this.entries.get(`${organizationId}\n${key}`)?.generation;
  }

  /** The value kept under `key` for `generation`, if it still is; nothing else changes. */
  heldUnder(organizationId: string, key: string, generation: number): V | undefined {
    const entry = this.entries.get(`${organizationId}\n${key}`);
    return entry?.generation === generation ? entry.value : undefined;
  }

  /** The value kept under `key` for `generation`; one kept under another generation goes. */
  private recalled(key: string, generation: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry?.generation === generation) {
      this.entries.touch(key);
      return entry.value;
    }
    if (entry) this.entries.delete(key);
    return undefined;
  }

  /** `value` kept under `key` for `generation` (one heavier than the whole cache is only answered). */
  private kept(key: string, generation: number, value: V, keep: (value: V) => V): V {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return value;
    const kept = keep(value);
    this.entries.set(key, { generation, value: kept }, weight);
    return kept;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The dossiers a node holds as a GET shows them, by the generation each was read under. */
export type DossierRecords = NodeCache<Dossier>;

export const dossierRecords = (alone: Alone): DossierRecords => new NodeCache<Dossier>(alone, "dossiers", RECORDS_REMEMBERED);

/** One remembered record is shared by every request that gets it: none may change it for the others. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

interface Cached {
  dossiers: EngineQueries<"dossiers">;
  contacts: EngineQueries<"contacts">;
}

/** `queries` with the reads above remembered, checked against `seen()`: the generations the current
 * request's admission read (undefined outside a GET's read); and `read()`, what it read ahead.
 * `dossiers`: the records, shared with the admissions (src/db/pg/counters.ts). */
export function cachedReads<Q extends Cached>(
  queries: Q,
  seen: () => CacheGenerations | undefined,
  read: () => ReadAheadDone | undefined,
  alone: Alone,
  dossiers: DossierRecords = dossierRecords(alone),
): Q {
  const contacts = new NodeCache<Contact>(alone, "contacts", RECORDS_REMEMBERED);
  const answers = new NodeCache<Answer>(alone, "dossiers", MAX_ANSWERS, ANSWERS_CHARS, (answer) => 2 * answer.json.length);
  return {
    ...queries,
    dossiers: {
      ...queries.dossiers,
      shown: (organizationId: string, id: string, options: { remember: boolean }) => {
        const ahead = read();
        if (ahead?.organizationId === organizationId && ahead.dossierId === id) {
          return options.remember && ahead.dossier ? dossiers.remember(seen(), organizationId, id, ahead.dossier, frozen) : ahead.dossier;
        }
        return options.remember
          ? dossiers.get(seen(), organizationId, id, async () => queries.dossiers.shown(organizationId, id, options), frozen)
          : queries.dossiers.shown(organizationId, id, options);
      },
      // The answer is not frozen: the route keeps its envelope on it (src/http/routes/dossiers.ts).
      pageJson: async (organizationId: string, query: ListDossiersQuery, now: string, options: { remember: boolean }) => {
        if (!options.remember || !rememberable(query)) return queries.dossiers.pageJson(organizationId, query, now, options);
        let fresh: Answer | undefined;
        const load = async () => {
          fresh = await queries.dossiers.pageJson(organizationId, query, now, options);
          return fresh.json.length <= MAX_ANSWER_CHARS ? fresh : null;
        };
        return (await answers.get(seen(), organizationId, JSON.stringify(query), load)) ?? fresh!;
      },
    },
    contacts: {
      ...queries.contacts,
      shown: (organizationId: string, id: string, options: { remember: boolean }) =>
        options.remember
          ? contacts.get(seen(), organizationId, id, async () => queries.contacts.shown(organizationId, id, options), frozen)
          : queries.contacts.shown(organizationId, id, options),
    },
  };
}
