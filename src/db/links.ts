// The dossier-contact links' queries (api-v1 "Dossier-contact link", C6), and the dossier's
// contact_id, which names its primary link's contact. At most one primary per dossier is the
// unique index dossier_contacts_one_primary: demote the old primary before marking a new one.
import type { Static } from "@sinclair/typebox";
import type { LinkItem as LinkItemSchema, LinkRole as LinkRoleSchema } from "../schemas/contacts";
import type { QueryDeps } from "./queries";

type LinkItem = Static<typeof LinkItemSchema>;
type LinkRole = Static<typeof LinkRoleSchema>;

export interface NewLink {
  organizationId: string;
  dossierId: string;
  contactId: string;
  roleOnDossier: LinkRole;
  isPrimary: boolean;
  createdAt: string;
}

export function linkQueries({ sqlite }: QueryDeps) {
  return {
    /** True when the dossier (archived included) is the organization's. */
    dossierExists(organizationId: string, dossierId: string): boolean {
      return sqlite.query(`SELECT 1 FROM dossiers WHERE id = ?1 AND organization_id = ?2`).get(dossierId, organizationId) !== null;
    },

    /** The link's is_primary, or null when the contact is not linked to the dossier. */
    isPrimary(organizationId: string, dossierId: string, contactId: string): boolean | null {
      const row = sqlite
        .query<{ is_primary: number }, [string, string, string]>(
          `SELECT is_primary FROM dossier_contacts WHERE dossier_id = ?1 AND contact_id = ?2 AND organization_id = ?3`,
        )
        .get(dossierId, contactId, organizationId);
      return row ? row.is_primary === 1 : null;
    },

    /** Unmarks the dossier's primary link unless it is `keptContactId`'s. */
    demotePrimary(organizationId: string, dossierId: string, keptContactId: string) {
      sqlite
        .query(`UPDATE dossier_contacts SET is_primary = 0 WHERE dossier_id = ?1 AND is_primary = 1 AND contact_id != ?2 AND organization_id = ?3`)
        .run(dossierId, keptContactId, organizationId);
    },

    insert(link: NewLink) {
      sqlite
        .query(`INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
        .run(link.dossierId, link.contactId, link.organizationId, link.roleOnDossier, link.isPrimary ? 1 : 0, link.createdAt);
    },

    /** Sets an existing link's role and is_primary; its created_at stays. */
    update(organizationId: string, dossierId: string, contactId: string, roleOnDossier: LinkRole, isPrimary: boolean) {
      sqlite
        .query(`UPDATE dossier_contacts SET role_on_dossier = ?3, is_primary = ?4 WHERE dossier_id = ?1 AND contact_id = ?2 AND organization_id = ?5`)
        .run(dossierId, contactId, roleOnDossier, isPrimary ? 1 : 0, organizationId);
    },

    /** Removes the link; false when there was none. */
    delete(organizationId: string, dossierId: string, contactId: string): boolean {
      return sqlite
        .query(`DELETE FROM dossier_contacts WHERE dossier_id = ?1 AND contact_id = ?2 AND organization_id = ?3`)
        .run(dossierId, contactId, organizationId).changes > 0;
    },

    /** Removes every link of the contact. */
    deleteAllOfContact(organizationId: string, contactId: string) {
      sqlite.query(`DELETE FROM dossier_contacts WHERE contact_id = ?1 AND organization_id = ?2`).run(contactId, organizationId);
    },

    /** Sets the dossier's contact_id to its primary link's contact, or null; updated_at untouched. */
    syncDossierContact(organizationId: string, dossierId: string) {
      sqlite
        .query(
          `UPDATE dossiers SET contact_id = (SELECT contact_id FROM dossier_contacts WHERE dossier_id = ?1 AND is_primary = 1 AND organization_id = ?2)
            WHERE id = ?1 AND organization_id = ?2`,
        )
        .run(dossierId, organizationId);
    },

    /** Sets contact_id to null on the dossiers whose primary the contact is; updated_at untouched. */
    clearDossierContact(organizationId: string, contactId: string) {
      sqlite.query(`UPDATE dossiers SET contact_id = NULL WHERE contact_id = ?1 AND organization_id = ?2`).run(contactId, organizationId);
    },

    /** A dossier's links with their contacts: the primary first, then by link time, oldest first;
     * links of the same millisecond by contact_id (a link has no id of its own, and PostgreSQL
     * keeps no rowid: the same order on both engines; a contact's id is a UUIDv7, so that is the
     * order the contacts were made in). */
    ofDossier(organizationId: string, dossierId: string): LinkItem[] {
      const rows = sqlite
        .query<Omit<LinkItem, "is_primary"> & { is_primary: number }, [string, string]>(
          `SELECT dc.contact_id, c.full_name, c.email, c.company, dc.role_on_dossier, dc.is_primary
             FROM dossier_contacts dc JOIN contacts c ON c.id = dc.contact_id
            WHERE dc.dossier_id = ?1 AND dc.organization_id = ?2
            ORDER BY dc.is_primary DESC, dc.created_at ASC, dc.contact_id ASC`,
        )
        .all(dossierId, organizationId);
      return rows.map((r) => ({ ...r, is_primary: r.is_primary === 1 }));
    },
  };
}
