// Dossier-contact links (api-v1 "Dossier-contact links", C6, C10).
//   GET    /dossiers/:id/contacts              the primary first, then by link time
//   POST   /dossiers/:id/contacts              link (201) or re-link (200)
//   DELETE /dossiers/:id/contacts/:contact_id  unlink; not linked: 404
// Link writes need contacts:write and dossiers:write. No event (C10).
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { notFound } from "../../errors";
import { List, One } from "../../schemas/common";
import { CreateLink, Link, LinkItem, Unlinked } from "../../schemas/contacts";
import { dossierExists, linkContact, listDossierContacts, unlinkContact } from "../../services/links";
import type { Auth } from "../auth";
import { operation } from "../openapi-doc";
import { all, one, pathId, readJson } from "../request";

export const linkRoutes = (ctx: Context, auth: Auth) => {
  const dossierId = (organizationId: string, id: string) => {
    const dossier = pathId(id);
    if (!dossierExists(ctx, organizationId, dossier)) throw notFound("dossier not found");
    return dossier;
  };

  return new Elysia()
    .use(auth)
    .get(
      "/dossiers/:id/contacts",
      ({ params, principal }) => {
        const items = listDossierContacts(ctx, principal.organizationId, pathId(params.id));
        if (!items) throw notFound("dossier not found");
        return all(items);
      },
      {
        scopes: ["contacts:read"],
        detail: operation({
          id: "listDossierContacts",
          summary: "List a dossier's contacts",
          params: { id: "The dossier's id" },
          tag: "Dossier-contact links",
          scopes: ["contacts:read"],
          description: "The primary first, then by link time, oldest first. Not paginated: meta is {total: n, page: 1, per_page: n}.",
          responses: { 200: List(LinkItem) },
          errors: ["not_found"],
        }),
      },
    )
    .post(
      "/dossiers/:id/contacts",
      async ({ params, request, principal, set }) => {
        const id = dossierId(principal.organizationId, params.id);
        const body = await readJson(request, CreateLink);
        const { created, link } = await linkContact(
          ctx,
          principal.organizationId,
          id,
          body.contact_id.toLowerCase(),
          body.role_on_dossier,
          body.is_primary,
        );
        set.status = created ? 201 : 200;
        return one(link);
      },
      {
        parse: "none",
        scopes: ["contacts:write", "dossiers:write"],
        detail: operation({
          id: "linkContact",
          summary: "Link a contact to a dossier",
          params: { id: "The dossier's id" },
          tag: "Dossier-contact links",
          scopes: ["contacts:write", "dossiers:write"],
          description:
            "201 for a new link, 200 when the contact was already linked (its role and is_primary are updated; without is_primary " +
            "the current value stays). is_primary true demotes the previous primary; the dossier's contact_id follows the primary. " +
            "A contact_id that is not the organization's: 404 naming the field. No event.",
          body: CreateLink,
          responses: { 200: One(Link), 201: One(Link) },
          errors: ["not_found", "invalid_body", "payload_too_large", "storage_unavailable"],
        }),
      },
    )
    .delete(
      "/dossiers/:id/contacts/:contact_id",
      async ({ params, principal }) => {
        const id = dossierId(principal.organizationId, params.id);
        const contactId = pathId(params.contact_id);
        return one(await unlinkContact(ctx, principal.organizationId, id, contactId));
      },
      {
        scopes: ["contacts:write", "dossiers:write"],
        detail: operation({
          id: "unlinkContact",
          summary: "Unlink a contact from a dossier",
          params: { id: "The dossier's id", contact_id: "The linked contact's id" },
          tag: "Dossier-contact links",
          scopes: ["contacts:write", "dossiers:write"],
          description: "The contact is kept. A contact that is not linked: 404. When it was the primary, the dossier's contact_id becomes null. No event.",
          responses: { 200: One(Unlinked) },
          errors: ["not_found", "storage_unavailable"],
        }),
      },
    );
};
