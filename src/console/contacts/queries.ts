// The contacts' data: a page of GET /contacts, one contact with its ETag (C16), the dossiers whose
// primary contact it is, and creating, editing (If-Match) and deleting one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiFailure, unwrap, type Dossier } from "../api/client";
import type { Contact, ContactQuery, CreateContact, PatchContact } from "./types";

const CONTACTS = ["contacts"] as const;
const contactKey = (id: string) => ["contacts", "one", id] as const;

export function useContactPage(query: ContactQuery) {
  return useQuery({
    queryKey: [...CONTACTS, "list", query],
    queryFn: async () => unwrap(await api.GET("/api/v1/contacts", { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** A contact as the server has it now, with the ETag an edit sends back in If-Match. */
export interface Tagged {
  contact: Contact;
  etag: string | null;
}

export function useContact(id: string) {
  return useQuery({
    queryKey: contactKey(id),
    queryFn: async (): Promise<Tagged> => {
      const answer = await api.GET("/api/v1/contacts/{id}", { params: { path: { id } } });
      return { contact: unwrap(answer).data, etag: answer.response.headers.get("etag") };
    },
  });
}

// A contact's dossiers, linked as primary or not: GET /dossiers?contact_id, once for those in work
// and once for the archived ones (which the list leaves out unless asked), 100 of each at most.
const LINKED_PAGE = 100;

export interface LinkedDossiers {
  dossiers: Dossier[];
  /** How many are linked in all (more than `dossiers` holds when over LINKED_PAGE of a kind). */
  total: number;
}

export function useLinkedDossiers(contactId: string) {
  return useQuery({
    queryKey: ["dossiers", "linked-to", contactId],
    queryFn: async (): Promise<LinkedDossiers> => {
      const pages = await Promise.all(
        [undefined, "archived" as const].map(async (status) =>
          unwrap(await api.GET("/api/v1/dossiers", { params: { query: { contact_id: contactId, status, per_page: LINKED_PAGE } } })),
        ),
      );
      return { dossiers: pages.flatMap((page) => page.data), total: pages.reduce((sum, page) => sum + page.meta.total, 0) };
    },
  });
}

export function useCreateContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateContact) => unwrap(await api.POST("/api/v1/contacts", { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: CONTACTS }),
  });
}

/** Saves an edit only if the contact is still as it was read (If-Match): else 412
 * precondition_failed, and the contact is read again to show what changed. */
export function useUpdateContact(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, etag }: { body: PatchContact; etag: string | null }) => {
      const answer = await api.PATCH("/api/v1/contacts/{id}", { params: { path: { id }, header: etag ? { "If-Match": etag } : {} }, body });
      return { contact: unwrap(answer).data, etag: answer.response.headers.get("etag") } satisfies Tagged;
    },
    onSuccess: (saved) => {
      client.setQueryData(contactKey(id), saved);
      void client.invalidateQueries({ queryKey: [...CONTACTS, "list"] });
    },
    onError: (error) => {
      if (error instanceof ApiFailure && error.status === 412) void client.invalidateQueries({ queryKey: contactKey(id) });
    },
  });
}

export function useDeleteContact(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.DELETE("/api/v1/contacts/{id}", { params: { path: { id } } })).data,
    onSuccess: () => {
      client.removeQueries({ queryKey: contactKey(id) });
      void client.invalidateQueries({ queryKey: [...CONTACTS, "list"] });
      // The dossiers whose primary contact it was have none now.
      void client.invalidateQueries({ queryKey: ["dossiers"] });
    },
  });
}
