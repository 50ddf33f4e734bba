// Dossier-contact links (api-v1 "Dossier-contact link", "Dossier-contact links", C6, C10).
// At most one primary per dossier (unique index dossier_contacts_one_primary), and the dossier's
// contact_id always names that primary, or null. Links emit no event and leave the dossier's
// updated_at alone (C10).
import type { Context } from "../context";
import { notFound } from "../errors";

export const LINK_ROLES = ["primary", "hiring_manager", "decision_maker", "champion", "gatekeeper", "introducer", "other"] as const;
export type LinkRole = (typeof LINK_ROLES)[number];

export interface Link {
  dossier_id: string;
  contact_id: string;
  role_on_dossier: LinkRole;
  is_primary: boolean;
}

export interface LinkItem {
  contact_id: string;
  full_name: string;
  email: string | null;
  company: string | null;
  role_on_dossier: LinkRole;
  is_primary: boolean;
}

/** True when the dossier (archived included) is the organization's. */
export function dossierExists(ctx: Context, organizationId: string, dossierId: string): boolean {
  return ctx.store.sqlite.query(`SELECT 1 FROM dossiers WHERE id = ?1 AND organization_id = ?2`).get(dossierId, organizationId) !== null;
}

/** True when the contact is the organization's. */
export function contactExists(ctx: Context, organizationId: string, contactId: string): boolean {
  return ctx.store.sqlite.query(`SELECT 1 FROM contacts WHERE id = ?1 AND organization_id = ?2`).get(contactId, organizationId) !== null;
}

/** Sets the dossier's contact_id to its primary link's contact, or null; updated_at untouched. */
export function syncPrimary(ctx: Context, dossierId: string) {
  ctx.store.sqlite
    .query(`UPDATE dossiers SET contact_id = (SELECT contact_id FROM dossier_contacts WHERE dossier_id = ?1 AND is_primary = 1) WHERE id = ?1`)
    .run(dossierId);
}

/**
 * Links a contact to a dossier, or updates the link when it exists (C6); call inside a transaction.
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
export function writeLink(
  ctx: Context,
  organizationId: string,
  dossierId: string,
  contactId: string,
  roleOnDossier: LinkRole,
  isPrimary?: boolean,
): { created: boolean; link: Link } {
  if (!dossierExists(ctx, organizationId, dossierId)) throw notFound("dossier not found");
  if (!contactExists(ctx, organizationId, contactId)) throw notFound("contact_id: contact not found");
  const { sqlite } = ctx.store;
  const existing = sqlite
    .query<{ is_primary: number }, [string, string]>(`SELECT is_primary FROM dossier_contacts WHERE dossier_id = ?1 AND contact_id = ?2`)
    .get(dossierId, contactId);
  const primary = isPrimary ?? (existing ? existing.is_primary === 1 : false);
  if (primary) {
    sqlite.query(`UPDATE dossier_contacts SET is_primary = 0 WHERE dossier_id = ?1 AND is_primary = 1 AND contact_id != ?2`).run(dossierId, contactId);
  }
  if (existing) {
    sqlite
      .query(`UPDATE dossier_contacts SET role_on_dossier = ?3, is_primary = ?4 WHERE dossier_id = ?1 AND contact_id = ?2`)
      .run(dossierId, contactId, roleOnDossier, primary ? 1 : 0);
  } else {
    sqlite
      .query(`INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
      .run(dossierId, contactId, organizationId, roleOnDossier, primary ? 1 : 0, ctx.now().toISOString());
  }
  syncPrimary(ctx, dossierId);
  return {
    created: !existing,
    link: { dossier_id: dossierId, contact_id: contactId, role_on_dossier: roleOnDossier, is_primary: primary },
  };
}

/** The primary link of a dossier inserted in this same transaction, whose INSERT already set
 * contact_id (POST /dossiers, C5). A new dossier has no link: nothing to demote, look up or sync,
 * which linkContact would each do with a statement. Both rows are known to be the organization's. */
export function insertPrimaryLink(ctx: Context, organizationId: string, dossierId: string, contactId: string) {
  ctx.store.sqlite
    .query(`INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at) VALUES (?1, ?2, ?3, 'primary', 1, ?4)`)
    .run(dossierId, contactId, organizationId, ctx.now().toISOString());
}

/**
 * Removes a link (the contact stays); call inside a transaction. Not linked: not_found (C10).
 * When it was the primary, the dossier's contact_id becomes null. No event (C10).
 */
export function writeUnlink(ctx: Context, organizationId: string, dossierId: string, contactId: string) {
  if (!dossierExists(ctx, organizationId, dossierId)) throw notFound("dossier not found");
  const removed = ctx.store.sqlite
    .query(`DELETE FROM dossier_contacts WHERE dossier_id = ?1 AND contact_id = ?2 AND organization_id = ?3`)
    .run(dossierId, contactId, organizationId);
  if (removed.changes === 0) throw notFound("this contact is not linked to the dossier");
  syncPrimary(ctx, dossierId);
  return { dossier_id: dossierId, contact_id: contactId, unlinked: true as const };
}

/** A dossier's contacts: the primary first, then by link time, oldest first (C10); null when the
 * dossier is not the organization's. */
export function listDossierContacts(ctx: Context, organizationId: string, dossierId: string): LinkItem[] | null {
  if (!dossierExists(ctx, organizationId, dossierId)) return null;
  const rows = ctx.store.sqlite
    .query<Omit<LinkItem, "is_primary"> & { is_primary: number }, [string, string]>(
      `SELECT dc.contact_id, c.full_name, c.email, c.company, dc.role_on_dossier, dc.is_primary
       FROM dossier_contacts dc JOIN contacts c ON c.id = dc.contact_id
       WHERE dc.dossier_id = ?1 AND dc.organization_id = ?2
       ORDER BY dc.is_primary DESC, dc.created_at ASC, dc.rowid ASC`,
    )
    .all(dossierId, organizationId);
  return rows.map((r) => ({ ...r, is_primary: r.is_primary === 1 }));
}
