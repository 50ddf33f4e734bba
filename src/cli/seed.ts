import { randomInt } from "node:crypto";
import { seedDemoData, type DemoCounts } from "../services/demo-data";
import { getOrg } from "../services/orgs";
import { open, optional, output, parse, required, STORE_ENV_HELP, UnknownIdError, UsageError } from "./args";
import { progressLine } from "./progress";

export const SEED_HELP = `dossier seed --org ID [--dossiers N] [--contacts N] [--seed S] [--data DIR] [--json]
  Demo data to try the API on: made-up contacts (candidates, and people at client and prospect
  companies), and dossiers in both default flows spread over their stages, with notes, a second
  contact on some, deal sizes on the sales ones, some won, lost or overdue. Made as the API would
  make them, dated over the past months. Their events are recorded but never sent to a webhook
  (skipped). Emails are under .example, phone numbers in a range kept for fiction. On a terminal
  it shows its progress on stderr (not with --json).
  --org ID       the organization to fill (required)
  --dossiers N   how many dossiers, 0 to 100000 (default 120)
  --contacts N   how many contacts, 1 to 100000 (default 150); dossiers take their people from them
  --seed S       an integer from 0 to 4294967295: the same seed gives the same data again (default: a random one, printed)
  --data DIR     the data folder (default: env DOSSIER_DATA, else ./data)
  --json         print {"organization_id","seed","counts":{...}} as one JSON object on stdout (default: text)
${STORE_ENV_HELP}`;

function count(value: string | undefined, name: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > 100_000) throw new UsageError(`--${name} must be an integer from ${min} to 100000`);
  return Number(value);
}

function seedValue(value: string | undefined): number {
  if (value === undefined) return randomInt(2 ** 32);
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) throw new UsageError("--seed must be an integer from 0 to 4294967295");
  return Number(value);
}

export async function seedCommand(argv: string[]) {
  const parsed = parse(argv, { org: { type: "string" }, dossiers: { type: "string" }, contacts: { type: "string" }, seed: { type: "string" } });
  const organizationId = required(parsed, "org");
  const dossiers = count(optional(parsed, "dossiers"), "dossiers", 0, 120);
  const contacts = count(optional(parsed, "contacts"), "contacts", 1, 150);
  const seed = seedValue(optional(parsed, "seed"));
  const ctx = await open(parsed);
  const org = await getOrg(ctx, organizationId);
  if (!org) throw new UnknownIdError(`no organization ${organizationId}`);
  const progress = progressLine(!parsed.values.json && process.stderr.isTTY === true);
  let drawnAt = -Infinity;
  let counts: DemoCounts;
  try {
    counts = await seedDemoData(ctx, org.id, {
      dossiers,
      contacts,
      seed,
      onProgress(done, total) {
        const now = performance.now();
        // At most ~10 redraws a second, and always the last step.
        if (done < total && now - drawnAt < 100) return;
        drawnAt = now;
        progress.show(`seed: ${bar(done / total)} ${done} of ${total} contacts and dossiers`);
      },
    });
  } finally {
    progress.end();
    await ctx.store.close();
  }
  output(parsed, { organization_id: org.id, seed, counts }, describe(org.name, seed, counts));
}

const bar = (share: number, width = 24) => `[${"#".repeat(Math.round(share * width)).padEnd(width, ".")}]`;

function describe(name: string, seed: number, c: DemoCounts): string {
  return [
    `seeded ${name}: ${c.contacts} contacts, ${c.dossiers} dossiers (${c.candidate_dossiers} candidate, ${c.sales_dossiers} sales)`,
    `  ${c.links} contact links, ${c.notes} notes; ${c.overdue} overdue, ${c.won} won, ${c.lost} lost, ${c.archived} archived`,
    `  the same data again: --seed ${seed}`,
    `  try: curl -H "Authorization: Bearer $KEY" "http://127.0.0.1:8080/api/v1/dossiers?overdue=true"`,
  ].join("\n");
}
