// Dossier-contact links (api-v1 "Dossier-contact link", "Dossier-contact links", C6, C10).
// At most one primary per dossier (unique index dossier_contacts_one_primary), and the dossier's
// contact_id always names that primary, or null. Links emit no event and leave the dossier's
// updated_at alone (C10). The SQL is in src/db/links.ts.
import type { Awaitable } from "../awaitable";
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import { notFound } from "../errors";
import type { Link as LinkSchema, LinkItem as LinkItemSchema, LinkRole as LinkRoleSchema } from "../schemas/contacts";
import { linkEnded, recordHistory, type Changes } from "./history";

export type Link = Static<typeof LinkSchema>;
export type LinkItem = Static<typeof LinkItemSchema>;
export type LinkRole = Static<typeof LinkRoleSchema>;

/** True when the dossier (archived included) is the organization's. */
export function dossierExists(ctx: Context, organizationId: string, dossierId: string): Awaitable<boolean> {
  return ctx.store.links.dossierExists(organizationId, dossierId);
}

/** True when the contact is the organization's. */
export function contactExists(ctx: Context, organizationId: string, contactId: string): Awaitable<boolean> {
  return ctx.store.contacts.exists(organizationId, contactId);
}

/**
 * Links a contact to a dossier, or updates the link when it exists (C6).
 * A re-link keeps the link's created_at and, without `isPrimary`, its current is_primary (C10).
 * `isPrimary: true` demotes the dossier's previous primary. The dossier's contact_id follows the
 * primary (null when none). No event, no change to dossiers.updated_at (C10).
 * Throws not_found naming the field when the dossier or the contact is not the organization's.
 */
export const linkContact = (
  ctx: Context,
  organizationId: string,
  dossierId: string,
  contactId: string,
  roleOnDossier: LinkRole,
  isPrimary?: boolean,
): Promise<{ created: boolean; link: Link }> => ctx.store.write(() => writeLink(ctx, organizationId, dossierId, contactId, roleOnDossier, isPrimary));

export const unlinkContact = (ctx: Context, organizationId: string, dossierId: string, contactId: string) =>
  ctx.store.write(() => writeUnlink(ctx, organizationId, dossierId, contactId));

/** linkContact's body, for a unit of work that does more. */
export async function writeLink(
  ctx: Context,
  organizationId: string,
  dossierId: string,
  contactId: string,
  roleOnDossier: LinkRole,
  isPrimary?: boolean,
): Promise<{ created: boolean; link: Link }> {
  if (!(await dossierExists(ctx, organizationId, dossierId))) throw notFound("dossier not found");
  if (!(await contactExists(ctx, organizationId, contactId))) throw notFound("contact_id: contact not found");
  const { links } = ctx.store;
  const old = await ctx.store.history.link(organizationId, dossierId, contactId);
  const wasPrimary = await links.isPrimary(organizationId, dossierId, contactId);
  const linked = wasPrimary !== null;
  const primary = isPrimary ?? wasPrimary ?? false;
  if (primary) await links.demotePrimary(organizationId, dossierId, contactId);
  if (linked) await links.update(organizationId, dossierId, contactId, roleOnDossier, primary);
  else await links.insert({ organizationId, dossierId, contactId, roleOnDossier, isPrimary: primary, createdAt: ctx.now().toISOString() });
  await links.syncDossierContact(organizationId, dossierId);
  const changes: Changes = {};
  if (old?.role_on_dossier !== roleOnDossier) changes.role_on_dossier = [old?.role_on_dossier ?? null, roleOnDossier];
  if (old?.is_primary !== primary) changes.is_primary = [old?.is_primary ?? null, primary];
  if (Object.keys(changes).length > 0) {
    await recordHistory(ctx, organizationId, dossierId, "contact_linked", { contact_id: [old ? contactId : null, contactId], ...changes });
  }
  return {
    created: !linked,
    link: { dossier_id: dossierId, contact_id: contactId, role_on_dossier: roleOnDossier, is_primary: primary },
  };
}

/** The primary link of a dossier inserted in this same unit, whose INSERT already set
 * contact_id (POST /dossiers, C5). A new dossier has no link: nothing to demote, look up or sync,
 * which linkContact would each do with a statement. Both rows are known to be the organization's. */
export async function insertPrimaryLink(ctx: Context, organizationId: string, dossierId: string, contactId: string) {
  await ctx.store.links.insert({ organizationId, dossierId, contactId, roleOnDossier: "primary", isPrimary: true, createdAt: ctx.now().toISOString() });
}

/**
 * Removes a link (the contact stays); call inside a unit. Not linked: not_found (C10).
 * When it was the primary, the dossier's contact_id becomes null. No event (C10).
 */
export async function writeUnlink(ctx: Context, organizationId: string, dossierId: string, contactId: string) {
  if (!(await dossierExists(ctx, organizationId, dossierId))) throw notFound("dossier not found");
  const old = await ctx.store.history.link(organizationId, dossierId, contactId);
  if (old) await recordHistory(ctx, organizationId, dossierId, "contact_unlinked", linkEnded(contactId, old));
  if (!(await ctx.store.links.delete(organizationId, dossierId, contactId))) throw notFound("this contact is not linked to the dossier");
  await ctx.store.links.syncDossierContact(organizationId, dossierId);
  return { dossier_id: dossierId, contact_id: contactId, unlinked: true as const };
}

/** A dossier's contacts: the primary first, then by link time, oldest first (C10); null when the
 * dossier is not the organization's. */
export async function listDossierContacts(ctx: Context, organizationId: string, dossierId: string): Promise<LinkItem[] | null> {
  if (!(await dossierExists(ctx, organizationId, dossierId))) return null;
  return await ctx.store.links.ofDossier(organizationId, dossierId);
}
