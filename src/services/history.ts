// A dossier's history (C18, C20 "History items per change", "History kinds"): one item per kind
// of change per request, written in the unit of the change, with its actor (src/actor.ts).
import type { Static } from "@sinclair/typebox";
import { currentActor, type Actor } from "../actor";
import type { Context } from "../context";
import type { HistoryItem as HistoryItemSchema, StageStay } from "../schemas/history";

export type HistoryKind =
  | "created" | "updated" | "stage_changed" | "cv_attached" | "note_added" | "archived" | "contact_linked" | "contact_unlinked"
  | "task_created" | "task_done";

/** field → [old, new] */
export type Changes = Record<string, [unknown, unknown]>;

export type HistoryItem = Static<typeof HistoryItemSchema>;
export type StageTime = Static<typeof StageStay>;

const DAY_MS = 86_400_000;

/** Records one item; call inside the unit of the change, beside its recordEvent. */
export async function recordHistory(ctx: Context, organizationId: string, dossierId: string, kind: HistoryKind, changes: Changes) {
  const actor = currentActor();
  const name = actor?.name ?? (actor ? (await nameOf(ctx, organizationId, actor)) : null);
  await ctx.store.history.insert(organizationId, dossierId, {
    at: ctx.now().toISOString(),
    kind,
    actor_type: actor?.type ?? null,
    actor_id: actor?.id ?? null,
    actor_name: name,
    changes: JSON.stringify(changes),
  });
}

/** A key's or member's name as it is now: the principal need not carry it. */
async function nameOf(ctx: Context, organizationId: string, actor: Actor): Promise<string | null> {
  if (actor.type === "key") return await ctx.store.history.keyName(organizationId, actor.id);
  if (actor.type === "member") return await ctx.store.history.memberName(organizationId, actor.id);
  return null;
}

/** The fields of `after` that differ from `before`, as changes. */
export function changesOf<T extends object>(before: T, after: T, fields: readonly (keyof T)[]): Changes {
  const changes: Changes = {};
  for (const field of fields) {
    const [was, is] = [before[field] ?? null, after[field] ?? null];
    if (was !== is) changes[field as string] = [was, is];
  }
  return changes;
}

/** The changes of a link that ends (an unlink, or its contact deleted). */
export const linkEnded = (contactId: string, link: { role_on_dossier: string; is_primary: boolean }): Changes => ({
  contact_id: [contactId, null],
  role_on_dossier: [link.role_on_dossier, null],
  is_primary: [link.is_primary, null],
});

/** GET /dossiers/{id}/history: every item, oldest first, and the stays in stages by entered_at.
 * Not paged: a dossier's history grows with what people do to it, and meta.stages needs it whole. */
export async function dossierHistory(ctx: Context, organizationId: string, dossierId: string): Promise<{ data: HistoryItem[]; meta: { stages: StageTime[] } }> {
  const now = ctx.now().getTime();
  return await ctx.store.read(async () => {
    const data = (await ctx.store.history.ofDossier(organizationId, dossierId)).map((row) => ({
      at: row.at,
      kind: row.kind as HistoryKind,
      actor: row.actor_type === null ? null : { type: row.actor_type, id: row.actor_id ?? "", name: row.actor_name },
      changes: JSON.parse(row.changes) as Changes,
    }));
    const stages = (await ctx.store.history.staysOfDossier(organizationId, dossierId)).map((stay) => ({
      ...stay,
      days: ((stay.left_at === null ? now : Date.parse(stay.left_at)) - Date.parse(stay.entered_at)) / DAY_MS,
    }));
    return { data, meta: { stages } };
  });
}
