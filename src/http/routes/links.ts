// Dossier-contact links (api-v1 "Dossier-contact links", C6, C10).
//   GET    /dossiers/:id/contacts              the primary first, then by link time
//   POST   /dossiers/:id/contacts              link (201) or re-link (200)
//   DELETE /dossiers/:id/contacts/:contact_id  unlink; not linked: 404
// Link writes need contacts:write and dossiers:write. No event (C10).
import { notFound } from "../../errors";
import { List, One } from "../../schemas/common";
import { CreateLink, Link, LinkItem, Unlinked } from "../../schemas/contacts";
import { linkContact, listDossierContacts, unlinkContact } from "../../services/links";
import { defineRoute } from "../route";
import { all, one } from "../request";
import { dossierId } from "./dossiers";

const TAG = "Dossier-contact links";

export const linkRoutes = [
  defineRoute({
    id: "listDossierContacts",
    method: "GET",
    path: "/dossiers/:id/contacts",
    summary: "List a dossier's contacts",
    tag: TAG,
    description: "The primary first, then by link time, oldest first. Not paginated: meta is {total: n, page: 1, per_page: n}.",
    scopes: ["contacts:read"],
    params: { id: "The dossier's id" },
    responses: {
      200: {
        schema: List(LinkItem),
        description: "Every contact linked to the dossier, the primary first, then oldest link first (not paginated: meta.per_page is the number of items)",
      },
    },
    handler: async ({ ctx, principal, params }) => {
      const items = await listDossierContacts(ctx, principal.organizationId, params.id);
      if (!items) throw notFound("dossier not found");
      return all(items);
    },
  }),
  defineRoute({
    id: "linkContact",
    location: (created) => `/dossiers/${created.dossier_id}/contacts/${created.contact_id}`,
    method: "POST",
    path: "/dossiers/:id/contacts",
    summary: "Link a contact to a dossier",
    tag: TAG,
    description:
      "201 for a new link, 200 when the contact was already linked (its role and is_primary are updated; without is_primary " +
      "the current value stays). is_primary true demotes the previous primary; the dossier's contact_id follows the primary. " +
      "A contact_id that is not the organization's: 404 naming the field. No event.",
    scopes: ["contacts:write", "dossiers:write"],
    params: { id: "The dossier's id" },
    load: dossierId,
    body: CreateLink,
    responses: {
      200: { schema: One(Link), description: "The contact was already linked: its role (and is_primary, when given) are updated" },
      201: { schema: One(Link), description: "The contact is now linked to the dossier" },
    },
    handler: async ({ ctx, principal, resource: id, body, set }) => {
      const { created, link } = await linkContact(ctx, principal.organizationId, id, body.contact_id.toLowerCase(), body.role_on_dossier, body.is_primary);
      set.status = created ? 201 : 200;
      return one(link);
    },
  }),
  defineRoute({
    id: "unlinkContact",
    method: "DELETE",
    path: "/dossiers/:id/contacts/:contact_id",
    summary: "Unlink a contact from a dossier",
    tag: TAG,
    description: "The contact is kept. A contact that is not linked: 404. When it was the primary, the dossier's contact_id becomes null. No event.",
    scopes: ["contacts:write", "dossiers:write"],
    params: { id: "The dossier's id", contact_id: "The linked contact's id" },
    load: dossierId,
    responses: { 200: { schema: One(Unlinked), description: "The link is removed; the contact and the dossier are kept" } },
    handler: async ({ ctx, principal, resource: id, params }) => one(await unlinkContact(ctx, principal.organizationId, id, params.contact_id)),
  }),
];
