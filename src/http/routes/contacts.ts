// Contacts (api-v1 "Contacts", C3, C6, C10).
//   GET    /contacts        newest first, paged; kind (repeated: any of), pool, search
//   POST   /contacts        create (201); duplicate email in the organization: 409
//   GET    /contacts/:id
//   PATCH  /contacts/:id    only the keys sent change
//   DELETE /contacts/:id    hard delete; links removed, dossiers kept
import { chain } from "../../awaitable";
import { notFound } from "../../errors";
import { One, Paged } from "../../schemas/common";
import { Contact, ContactQuery, CreateContact, DeletedContact, PatchContact } from "../../schemas/contacts";
import { createContact, deleteContact, listContacts, showContact, updateContact } from "../../services/contacts";
import { defineRoute, type Asked } from "../route";
import { cursorPaging, one, pagedAnswer } from "../request";

const TAG = "Contacts";
const ofContact = { id: "The contact's id" };

function contact({ ctx, principal, params }: Asked<"id">) {
  return chain(showContact(ctx, principal.organizationId, params.id), (found) => {
    if (!found) throw notFound("contact not found");
    return found;
  });
}

export const contactRoutes = [
  defineRoute({
    id: "listContacts",
    method: "GET",
    path: "/contacts",
    summary: "List contacts",
    tag: TAG,
    description:
      "Newest first (created_at, then id, descending). `kind` may repeat: contacts holding any of the kinds. " +
      "`search`: case-insensitive substring of full_name, email, company or role. `metadata[key]=value`: only contacts whose metadata " +
      "holds that value under that key (several AND together).",
    scopes: ["contacts:read"],
    query: ContactQuery,
    responses: { 200: { schema: Paged(Contact), description: "A page of the organization's contacts that match every filter given, with the total across all pages" } },
    handler: ({ ctx, principal, query, request }) => {
      const paged = cursorPaging(query, request);
      const listed = listContacts(ctx, principal.organizationId, {
        kinds: query.kind, pool: query.pool, search: query.search, updatedSince: query.updated_since, metadata: query.metadata, ...paged,
      });
      return chain(listed, (answer) => pagedAnswer(answer, paged));
    },
  }),
  defineRoute({
    id: "createContact",
    location: (created) => `/contacts/${created.id}`,
    method: "POST",
    path: "/contacts",
    summary: "Create a contact",
    tag: TAG,
    description: "An email already used by a contact of the organization (case-insensitive) answers 409 duplicate_contact.",
    scopes: ["contacts:write"],
    body: CreateContact,
    responses: { 201: { schema: One(Contact), description: "The contact was created; dossier_count is 0" } },
    errors: ["duplicate_contact"],
    handler: async ({ ctx, principal, body }) => one(await createContact(ctx, principal.organizationId, { ...body, kind: body.kind ?? undefined })),
  }),
  defineRoute({
    id: "getContact",
    conditional: true,
    method: "GET",
    path: "/contacts/:id",
    summary: "Retrieve a contact",
    tag: TAG,
    scopes: ["contacts:read"],
    params: ofContact,
    load: contact,
    responses: { 200: { schema: One(Contact), description: "The contact, with its kinds and the number of dossiers linked to it" } },
    handler: ({ resource }) => one(resource),
  }),
  defineRoute({
    id: "updateContact",
    conditional: true,
    method: "PATCH",
    path: "/contacts/:id",
    summary: "Update a contact",
    tag: TAG,
    description:
      "Only the keys sent change; `kind` and `notes` replace. `null` clears a field other than full_name and kind. " +
      "A PATCH that changes nothing keeps updated_at.",
    scopes: ["contacts:write"],
    params: ofContact,
    load: contact,
    body: PatchContact,
    responses: { 200: { schema: One(Contact), description: "The contact after the change" } },
    errors: ["duplicate_contact"],
    handler: async ({ ctx, principal, resource, body }) => {
      const updated = await updateContact(ctx, principal.organizationId, resource.id, body);
      if (!updated) throw notFound("contact not found");
      return one(updated);
    },
  }),
  defineRoute({
    id: "deleteContact",
    conditional: true,
    method: "DELETE",
    path: "/contacts/:id",
    summary: "Delete a contact",
    tag: TAG,
    description: "Hard delete. Its links are removed; the dossiers stay, and one whose primary it was gets contact_id null. No event.",
    scopes: ["contacts:write"],
    params: ofContact,
    load: contact,
    responses: { 200: { schema: One(DeletedContact), description: "The contact is deleted for good; its links are removed and the linked dossiers kept" } },
    handler: async ({ ctx, principal, params }) => {
      if (!(await deleteContact(ctx, principal.organizationId, params.id))) throw notFound("contact not found");
      return one({ id: params.id, deleted: true as const });
    },
  }),
];
