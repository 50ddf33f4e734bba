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

// GET /dossiers has no filter by contact: the dossiers are read 100 at a time (archived ones too)
// and those whose primary contact this is are kept, up to SCAN_PAGES pages of each kind.
const SCAN_PAGES = 10;

export interface LinkedDossiers {
  dossiers: Dossier[];
  /** Whether some dossiers were left unread (more than SCAN_PAGES pages). */
  partial: boolean;
}

export function usePrimaryDossiers(contactId: string) {
  return useQuery({
    queryKey: ["dossiers", "primary-of", contactId],
    queryFn: async (): Promise<LinkedDossiers> => {
      const found: Dossier[] = [];
      let partial = false;
      for (const status of [undefined, "archived" as const]) {
        for (let page = 1; ; page++) {
          const answer = unwrap(await api.GET("/api/v1/dossiers", { params: { query: { status, page, per_page: 100 } } }));
          found.push(...answer.data.filter((dossier) => dossier.contact_id === contactId));
          if (page * 100 >= answer.meta.total || answer.data.length === 0) break;
          if (page === SCAN_PAGES) {
            partial = true;
            break;
          }
        }
      }
      return { dossiers: found, partial };
    },
    // The scan is many requests: a page opened again soon after shows what it found.
    staleTime: 30_000,
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
