// Demo data for a new user (`dossier seed`): made-up contacts, and dossiers in both default flows
// spread over their stages, with notes, secondary contacts, some overdue, deal sizes on the sales
// ones, so that the API (and the console) can be tried on something that looks like real work.
//
// Everything goes through the services, as an API client's requests would, with the clock set back
// to when each step "happened": created_at, stage_entered_at, stage_due_at and the events are the
// app's own. The work is grouped in transactions of BATCH dossiers (one commit each, not one per
// step). The events are recorded but never delivered: the seed marks them `skipped`, as events made
// while no endpoint is set (docs/decisions.md), so a configured webhook is not flooded with fiction.
import type { Context } from "../context";
import { findContactByEmail, writeNewContact, type Contact } from "./contacts";
import { writeArchive, writeDossierPatch, writeNewDossier, type Dossier, type DossierType } from "./dossiers";
import { listFlows, type Stage } from "./flows";
import { writeLink, type LinkRole } from "./links";
import { checkedNote, writeNote } from "./notes";
import { lastEventSeq, skipEventsAfter } from "./outbox";
import * as words from "./demo-words";
import { seededRandom } from "../random";

export interface DemoOptions {
  dossiers: number;
  contacts: number;
  /** The same seed gives the same people, companies, spread and timeline (counted back from now). */
  seed: number;
  /** Called as the work goes on: steps done of the total (one step per contact and per dossier). */
  onProgress?: (done: number, total: number) => void;
}

export interface DemoCounts {
  contacts: number;
  dossiers: number;
  candidate_dossiers: number;
  sales_dossiers: number;
  /** Every dossier-contact link, the primary ones included (what GET /dossiers/{id}/contacts lists). */
  links: number;
  notes: number;
  /** Active dossiers whose stage_due_at has passed (GET /dossiers?overdue=true). */
  overdue: number;
  won: number;
  lost: number;
  archived: number;
}

const BATCH = 25;
const DAY = 86_400_000;

/** Seeds the organization (which must exist) and answers what it made. */
export async function seedDemoData(ctx: Context, organizationId: string, options: DemoOptions): Promise<DemoCounts> {
  const random = generator(options.seed);
  const now = ctx.now().getTime();
  // The services read the time from the context: this one's clock is set before each step.
  let clock = now;
  const timed: Context = { ...ctx, now: () => new Date(clock) };
  const total = options.contacts + options.dossiers;
  let done = 0;
  const counts: DemoCounts = {
    contacts: 0, dossiers: 0, candidate_dossiers: 0, sales_dossiers: 0, links: 0, notes: 0, overdue: 0, won: 0, lost: 0, archived: 0,
  };

  /** One transaction whose events are recorded as never to be delivered. */
  const batch = (work: () => Promise<void>) =>
    ctx.store.write(async () => {
      const since = await lastEventSeq(ctx);
      await work();
      await skipEventsAfter(ctx, organizationId, since);
    });

  const people: Person[] = [];
  for (let start = 0; start < options.contacts; start += BATCH * 4) {
    await batch(async () => {
      for (let i = start; i < Math.min(start + BATCH * 4, options.contacts); i++) {
        clock = now - random.between(90, 150) * DAY;
        people.push((await newPerson(timed, organizationId, i, random, now)));
        counts.contacts++;
        options.onProgress?.(++done, total);
      }
    });
  }

  const candidates = people.filter((p) => p.side === "candidate");
  const business = people.filter((p) => p.side === "business");
  const stagesOf = { candidate: (await defaultStages(ctx, organizationId, "candidate")), sales: (await defaultStages(ctx, organizationId, "sales")) };
  const next = { candidate: 0, sales: 0 };
  for (let start = 0; start < options.dossiers; start += BATCH) {
    await batch(async () => {
      for (let i = start; i < Math.min(start + BATCH, options.dossiers); i++) {
        // The first two are one of each, so that both flows have dossiers from two on.
        const type: DossierType = i === 0 ? "candidate" : i === 1 ? "sales" : random.chance(0.6) ? "candidate" : "sales";
        const own = type === "candidate" ? candidates : business;
        const pool = own.length > 0 ? own : people;
        const person = pool[next[type]++ % pool.length];
        const plan = planDossier(random, type, stagesOf[type], now);
        const story = await tellDossier(timed, organizationId, { type, person, plan, business, random, now, setClock: (at) => (clock = at) });
        counts.dossiers++;
        counts[type === "candidate" ? "candidate_dossiers" : "sales_dossiers"]++;
        counts.notes += story.notes;
        counts.links += story.links;
        if (story.final.status === "won" || story.final.status === "lost" || story.final.status === "archived") counts[story.final.status]++;
        else if (story.final.stage_due_at !== null && Date.parse(story.final.stage_due_at) <= now) counts.overdue++;
        options.onProgress?.(++done, total);
      }
    });
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// People

interface Person {
  contact: Contact;
  side: "candidate" | "business";
}

/** Contact `index`: three in five are candidates, the others people at client and prospect
 * companies, two at each company (a buyer and a colleague). */
async function newPerson(ctx: Context, organizationId: string, index: number, random: Random, now: number): Promise<Person> {
  const first = random.pick(words.FIRST_NAMES);
  const last = random.pick(words.LAST_NAMES);
  const full_name = `${first} ${last}`;
  const phone = `+44 20 7946 0${String(random.between(0, 999)).padStart(3, "0")}`;
  const city = random.pick(words.CITIES);
  if (index % 5 < 3) {
    // A third of the candidates sit in the talent pool, some of them past its six months.
    const pooled = random.chance(0.3) ? now - random.between(10, 240) * DAY : null;
    const contact = await writeNewContact(ctx, organizationId, {
      full_name, email: (await freeEmail(ctx, organizationId, `${first}.${last}`, "inbox.example")), phone, city,
      company: random.pick(words.EMPLOYERS), role: random.pick(words.TITLES), kind: ["candidate"],
      pool_added_at: pooled === null ? null : new Date(pooled).toISOString(),
      pool_expires_at: pooled === null ? null : new Date(pooled + 180 * DAY).toISOString(),
    });
    return { contact, side: "candidate" };
  }
  const businessIndex = Math.floor(index / 5) * 2 + (index % 5) - 3;
  const company = words.COMPANIES[Math.floor(businessIndex / 2) % words.COMPANIES.length];
  const kind = [random.chance(0.5) ? "client" : "prospect", ...(random.chance(0.1) ? ["partner"] : [])];
  const contact = await writeNewContact(ctx, organizationId, {
    full_name, email: (await freeEmail(ctx, organizationId, `${first}.${last}`, company.domain)), phone, city,
    company: company.name, role: random.pick(words.BUSINESS_TITLES), kind,
  });
  return { contact, side: "business" };
}

/** `local@domain`, or with a number added when the organization has that address already
 * (contact emails are unique per organization, C6): seeding twice never clashes. */
async function freeEmail(ctx: Context, organizationId: string, local: string, domain: string): Promise<string> {
  const base = local.toLowerCase();
  for (let n = 1; n <= 10_000; n++) {
    const email = `${base}${n === 1 ? "" : n}@${domain}`;
    if (!(await findContactByEmail(ctx, organizationId, email))) return email;
  }
  throw new Error(`no free email address for ${base}@${domain}`);
}

// ---------------------------------------------------------------------------------------------
// Dossiers

/** Where a dossier ends up and when it got there: stage, status, and the times of its steps. */
interface Plan {
  stages: Stage[];
  /** Index of the stage it ends in. */
  target: number;
  status: "active" | "won" | "lost" | "archived";
  /** When it entered each stage up to `target` (index 0: its creation). */
  enteredAt: number[];
  /** When its status changed (won, lost, archived), or null while active. */
  closedAt: number | null;
}

/** A funnel: most dossiers in the early stages; the last stage means won (a sale can be lost
 * there); some lost or archived on the way; a quarter of the active ones past their stage's due date. */
function planDossier(random: Random, type: DossierType, stages: Stage[], now: number): Plan {
  const weights = stages.map((_, j) => stages.length - j);
  const target = random.weighted(weights);
  const last = target === stages.length - 1 && stages.length > 1;
  let status: Plan["status"] = "active";
  if (last) status = type === "sales" && random.chance(0.3) ? "lost" : "won";
  else if (random.chance(0.1)) status = "lost";
  else if (random.chance(0.04)) status = "archived";
  const deadline = stages[target]?.deadline_days ?? null;
  let ago: number; // days since it entered its current stage
  if (status !== "active") ago = random.between(2, 30);
  else if (deadline === null) ago = random.between(1, 30);
  else if (random.chance(0.25)) ago = deadline + random.between(1, 6);
  else ago = random.next() * 0.8 * deadline;
  const enteredAt = [now - ago * DAY - random.between(0, 3600_000)];
  for (let j = target - 1; j >= 0; j--) {
    const days = stages[j].deadline_days;
    const span = days === null || days === 0 ? random.between(1, 5) : (0.3 + 0.7 * random.next()) * days;
    enteredAt.unshift(enteredAt[0] - span * DAY);
  }
  const closedAt = status === "active" ? null : Math.min(enteredAt[enteredAt.length - 1] + random.between(1, 48) * 3600_000, now - 60_000);
  return { stages, target, status, enteredAt, closedAt };
}

interface Telling {
  type: DossierType;
  person: Person;
  plan: Plan;
  business: Person[];
  random: Random;
  /** The real time the seed started at: every step happens before it. */
  now: number;
  setClock(at: number): void;
}

/** Makes the dossier and walks it through its plan, step by step in time order. */
async function tellDossier(ctx: Context, organizationId: string, t: Telling): Promise<{ final: Pick<Dossier, "status" | "stage_due_at">; notes: number; links: number }> {
  const { type, person, plan, random } = t;
  const contact = person.contact;
  t.setClock(plan.enteredAt[0]);
  const fields =
    type === "candidate"
      ? {
          name: contact.full_name, role: random.pick(words.OPENINGS), company: contact.company,
          intake_notes: random.chance(0.5) ? random.pick(words.SOURCES) : null,
        }
      : {
          name: `${contact.company ?? contact.full_name}: ${random.pick(words.DEALS)}`, role: contact.role, company: contact.company,
          contact_person: contact.full_name, deal_size: random.between(4, 240) * 500, deal_currency: "EUR",
        };
  let dossier = await writeNewDossier(ctx, organizationId, { type, email: contact.email, phone: contact.phone, contact_id: contact.id, ...fields });
  let links = 1;
  const end = plan.closedAt ?? t.now - 60_000;

  // A second person on half of them: the hiring manager, or someone else at the buying company.
  const others = t.business.filter((p) => p !== person);
  if (others.length > 0 && random.chance(0.5)) {
    const colleagues = others.filter((p) => p.contact.company === contact.company);
    const other = type === "sales" && colleagues.length > 0 ? colleagues[0] : random.pick(others);
    const role: LinkRole = type === "candidate" ? "hiring_manager" : random.pick(["decision_maker", "champion", "gatekeeper"] as const);
    t.setClock(plan.enteredAt[0] + 60_000);
    await writeLink(ctx, organizationId, dossier.id, other.contact.id, role, false);
    links++;
  }

  const steps: { at: number; run(): Promise<unknown> }[] = [];
  for (let j = 1; j <= plan.target; j++) {
    const stage = plan.stages[j];
    steps.push({ at: plan.enteredAt[j], run: async () => (dossier = await writeDossierPatch(ctx, organizationId, dossier.id, { current_stage_id: stage.id })) });
  }
  const noteCount = random.between(0, 3);
  const texts = words.NOTES[type];
  for (let n = 0; n < noteCount; n++) {
    const content = random.pick(texts);
    const isInternal = random.chance(0.8);
    steps.push({ at: plan.enteredAt[0] + random.next() * (end - plan.enteredAt[0]), run: () => writeNote(ctx, organizationId, checkedNote(ctx, dossier.id, { content, is_internal: isInternal })) });
  }
  steps.sort((a, b) => a.at - b.at);
  for (const step of steps) {
    t.setClock(step.at);
    await step.run();
  }
  if (plan.status === "won" || plan.status === "lost") {
    t.setClock(plan.closedAt!);
    dossier = await writeDossierPatch(ctx, organizationId, dossier.id, { status: plan.status });
  } else if (plan.status === "archived") {
    t.setClock(plan.closedAt!);
    await writeArchive(ctx, organizationId, dossier.id);
    return { final: { status: "archived", stage_due_at: dossier.stage_due_at }, notes: noteCount, links };
  }
  return { final: dossier, notes: noteCount, links };
}

async function defaultStages(ctx: Context, organizationId: string, type: DossierType): Promise<Stage[]> {
  const flow = (await listFlows(ctx, organizationId, { type, page: 1, perPage: 100 })).data.find((f) => f.is_default);
  return flow?.stages ?? [];
}

// ---------------------------------------------------------------------------------------------
// A seeded random source (mulberry32): the same seed, the same data.

interface Random {
  next(): number;
  between(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An index drawn in proportion to the weights. */
  weighted(weights: number[]): number;
}

function generator(seed: number): Random {
  const next = seededRandom(seed);
  return {
    next,
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    weighted(weights) {
      let roll = next() * weights.reduce((a, b) => a + b, 0);
      for (let i = 0; i < weights.length; i++) {
        roll -= weights[i];
        if (roll < 0) return i;
      }
      return weights.length - 1;
    },
  };
}
