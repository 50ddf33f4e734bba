// The dossier-contact links on PostgreSQL: src/db/links.ts's statements, the same answers. Each
// write first takes the organization's write order (holdOrganization, src/db/pg/events.ts): a
// link's triggers take rows every writer of the organization shares.
import type { Static } from "@sinclair/typebox";
import type { NewLink } from "../links";
import type { LinkItem as LinkItemSchema, LinkRole as LinkRoleSchema } from "../../schemas/contacts";
import type { Db } from "./client";
import { holdOrganization } from "./events";
import type { EngineQueries } from "./queries";

type LinkItem = Static<typeof LinkItemSchema>;
type LinkRole = Static<typeof LinkRoleSchema>;

export function pgLinkQueries(db: Db, inUnit: () => boolean): EngineQueries<"links"> {
  return {
    /** True when the dossier (archived included) is the organization's. Inside a unit (a link's or
     * an unlink's first step), the organization's write order first: the link's state read next
     * (linked already? primary?) is then not another unit's to change before this one writes, as
     * under SQLite's one writer (two links of one contact at once: 201 then 200, not a 500). */
    async dossierExists(organizationId: string, dossierId: string) {
      if (inUnit()) await holdOrganization(db(), organizationId);
      return (await db()`SELECT 1 AS ok FROM dossiers WHERE id = ${dossierId} AND organization_id = ${organizationId}`).length > 0;
    },

    /** The link's is_primary, or null when the contact is not linked to the dossier. */
    async isPrimary(organizationId: string, dossierId: string, contactId: string) {
      const [row] = await db()<{ is_primary: boolean }[]>`SELECT is_primary FROM dossier_contacts
        WHERE dossier_id = ${dossierId} AND contact_id = ${contactId} AND organization_id = ${organizationId}`;
      return row ? row.is_primary : null;
    },

    /** Unmarks the dossier's primary link unless it is `keptContactId`'s. */
    async demotePrimary(organizationId: string, dossierId: string, keptContactId: string) {
      await holdOrganization(db(), organizationId);
      await db()`UPDATE dossier_contacts SET is_primary = false
        WHERE dossier_id = ${dossierId} AND is_primary AND contact_id != ${keptContactId} AND organization_id = ${organizationId}`;
    },

    async insert(link: NewLink) {
      await holdOrganization(db(), link.organizationId);
      await db()`INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at)
        VALUES (${link.dossierId}, ${link.contactId}, ${link.organizationId}, ${link.roleOnDossier}, ${link.isPrimary}, ${link.createdAt})`;
    },

    /** Sets an existing link's role and is_primary; its created_at stays. */
    async update(organizationId: string, dossierId: string, contactId: string, roleOnDossier: LinkRole, isPrimary: boolean) {
      await holdOrganization(db(), organizationId);
      await db()`UPDATE dossier_contacts SET role_on_dossier = ${roleOnDossier}, is_primary = ${isPrimary}
        WHERE dossier_id = ${dossierId} AND contact_id = ${contactId} AND organization_id = ${organizationId}`;
    },

    /** Removes the link; false when there was none. */
    async delete(organizationId: string, dossierId: string, contactId: string) {
      await holdOrganization(db(), organizationId);
      const done = await db()`DELETE FROM dossier_contacts WHERE dossier_id = ${dossierId} AND contact_id = ${contactId} AND organization_id = ${organizationId}`;
      return done.count > 0;
    },

    /** Removes every link of the contact. */
    async deleteAllOfContact(organizationId: string, contactId: string) {
      await holdOrganization(db(), organizationId);
      await db()`DELETE FROM dossier_contacts WHERE contact_id = ${contactId} AND organization_id = ${organizationId}`;
    },

    /** Sets the dossier's contact_id to its primary link's contact, or null; updated_at untouched. */
    async syncDossierContact(organizationId: string, dossierId: string) {
      await holdOrganization(db(), organizationId);
      await db()`UPDATE dossiers SET contact_id = (SELECT contact_id FROM dossier_contacts
          WHERE dossier_id = ${dossierId} AND is_primary AND organization_id = ${organizationId})
        WHERE id = ${dossierId} AND organization_id = ${organizationId}`;
    },

    /** Sets contact_id to null on the dossiers whose primary the contact is; updated_at untouched. */
    async clearDossierContact(organizationId: string, contactId: string) {
      await holdOrganization(db(), organizationId);
      await db()`UPDATE dossiers SET contact_id = NULL WHERE contact_id = ${contactId} AND organization_id = ${organizationId}`;
    },

    /** A dossier's links with their contacts: the primary first, then by link time, oldest first;
     * links of the same millisecond by contact_id (as on SQLite: a link has no id of its own). */
    async ofDossier(organizationId: string, dossierId: string) {
      return [
        ...(await db()<LinkItem[]>`SELECT dc.contact_id, c.full_name, c.email, c.company, dc.role_on_dossier, dc.is_primary
          FROM dossier_contacts dc JOIN contacts c ON c.id = dc.contact_id
          WHERE dc.dossier_id = ${dossierId} AND dc.organization_id = ${organizationId}
          ORDER BY dc.is_primary DESC, dc.created_at ASC, dc.contact_id ASC`),
      ];
    },
  };
}
