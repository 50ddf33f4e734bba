// Contacts (api-v1 "Contacts", C3, C6, C10).
//   GET    /contacts        newest first, paged; kind (repeated: any of), pool, search
//   POST   /contacts        create (201); duplicate email in the organization: 409
//   GET    /contacts/:id
//   PATCH  /contacts/:id    only the keys sent change
//   DELETE /contacts/:id    hard delete; links removed, dossiers kept
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { invalidBody, notFound } from "../../errors";
import { List, One, PagingQuery } from "../../schemas/common";
import { Contact, ContactKind, CreateContact, DeletedContact, PatchContact, PoolFilter } from "../../schemas/contacts";
import { createContact, deleteContact, getContact, KINDS, listContacts, updateContact, type Kind } from "../../services/contacts";
import type { Auth } from "../auth";
import { operation } from "../openapi-doc";
import { Type as t } from "@sinclair/typebox";
import { enumParam, one, page, paging, pathId, readJson, searchParams } from "../request";

/** `kind` may repeat (any of); each value must be a known kind. */
function kindsParam(params: URLSearchParams): Kind[] {
  const values = params.getAll("kind");
  for (const value of values) {
    if (!KINDS.includes(value as Kind)) throw invalidBody(`kind must be one of ${KINDS.join(", ")}`);
  }
  return values as Kind[];
}

export const contactRoutes = (ctx: Context, auth: Auth) => {
  const found = (organizationId: string, id: string) => {
    const contact = getContact(ctx, organizationId, pathId(id));
    if (!contact) throw notFound("contact not found");
    return contact;
  };

  return new Elysia()
    .use(auth)
    .get(
      "/contacts",
      ({ request, principal }) => {
        const params = searchParams(request);
        const kinds = kindsParam(params);
        const pool = enumParam(params, "pool", ["in_pool", "expired"] as const);
        const search = params.get("search") ?? undefined;
        const paged = paging(params);
        const { data, total } = listContacts(ctx, principal.organizationId, { kinds, pool, search, ...paged });
        return page(data, total, paged);
      },
      {
        scopes: ["contacts:read"],
        detail: operation({
          id: "listContacts",
          summary: "List contacts",
          tag: "Contacts",
          scopes: ["contacts:read"],
          description:
            "Newest first (created_at, then id, descending). `kind` may repeat: contacts holding any of the kinds. " +
            "`search`: case-insensitive substring of full_name, email, company or role.",
          query: {
            kind: t.Array(ContactKind, { description: "Repeat to combine: contacts holding any of the kinds" }),
            pool: PoolFilter,
            search: t.String({ description: "Case-insensitive substring of full_name, email, company or role" }),
            ...PagingQuery,
          },
          responses: { 200: List(Contact) },
          errors: ["invalid_body"],
        }),
      },
    )
    .post(
      "/contacts",
      async ({ request, principal, set }) => {
        const input = await readJson(request, CreateContact);
        const contact = await createContact(ctx, principal.organizationId, { ...input, kind: input.kind ?? undefined });
        set.status = 201;
        return one(contact);
      },
      {
        parse: "none",
        scopes: ["contacts:write"],
        detail: operation({
          id: "createContact",
          summary: "Create a contact",
          tag: "Contacts",
          scopes: ["contacts:write"],
          description: "An email already used by a contact of the organization (case-insensitive) answers 409 duplicate_contact.",
          body: CreateContact,
          responses: { 201: One(Contact) },
          errors: ["invalid_body", "duplicate_contact", "payload_too_large", "storage_unavailable"],
        }),
      },
    )
    .get(
      "/contacts/:id",
      ({ params, principal }) => one(found(principal.organizationId, params.id)),
      {
        scopes: ["contacts:read"],
        detail: operation({
          id: "getContact",
          summary: "Retrieve a contact",
          params: { id: "The contact's id" },
          tag: "Contacts",
          scopes: ["contacts:read"],
          responses: { 200: One(Contact) },
          errors: ["not_found"],
        }),
      },
    )
    .patch(
      "/contacts/:id",
      async ({ params, request, principal }) => {
        const { id } = found(principal.organizationId, params.id);
        const patch = await readJson(request, PatchContact);
        const contact = await updateContact(ctx, principal.organizationId, id, patch);
        if (!contact) throw notFound("contact not found");
        return one(contact);
      },
      {
        parse: "none",
        scopes: ["contacts:write"],
        detail: operation({
          id: "updateContact",
          summary: "Update a contact",
          params: { id: "The contact's id" },
          tag: "Contacts",
          scopes: ["contacts:write"],
          description:
            "Only the keys sent change; `kind` and `notes` replace. `null` clears a field other than full_name and kind. " +
            "A PATCH that changes nothing keeps updated_at.",
          body: PatchContact,
          responses: { 200: One(Contact) },
          errors: ["not_found", "invalid_body", "duplicate_contact", "payload_too_large", "storage_unavailable"],
        }),
      },
    )
    .delete(
      "/contacts/:id",
      async ({ params, principal }) => {
        const id = pathId(params.id);
        const deleted = await deleteContact(ctx, principal.organizationId, id);
        if (!deleted) throw notFound("contact not found");
        return one({ id, deleted: true as const });
      },
      {
        scopes: ["contacts:write"],
        detail: operation({
          id: "deleteContact",
          summary: "Delete a contact",
          params: { id: "The contact's id" },
          tag: "Contacts",
          scopes: ["contacts:write"],
          description: "Hard delete. Its links are removed; the dossiers stay, and one whose primary it was gets contact_id null. No event.",
          responses: { 200: One(DeletedContact) },
          errors: ["not_found", "storage_unavailable"],
        }),
      },
    );
};
