// One dossier's data and its changes. The dossier is kept with the ETag of the version shown: an
// edit is saved with If-Match (C16), so a change someone else made first is refused, not overwritten.
// It is read again only when this page changed it or the person asks to: what the page shows is
// the version its edits are based on.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiFailure, unwrap } from "../api/client";
import type { Contact, CreateDossierForm, Dossier, LinkedContact, LinkRole, Member, Note, PatchDossier } from "./types";

export interface Shown {
  dossier: Dossier;
  etag: string | null;
}

const dossierKey = (id: string) => ["dossier", id] as const;
const notesKey = (id: string) => ["dossier", id, "notes"] as const;
const linksKey = (id: string) => ["dossier", id, "contacts"] as const;
const historyKey = (id: string) => ["dossier", id, "history"] as const;
const cvKey = (id: string, cvUrl: string | null) => ["dossier", id, "cv", cvUrl] as const;

/** No second try for an answer the server meant (a 404 stays a 404). */
const retry = (count: number, error: unknown) => !(error instanceof ApiFailure && error.status < 500) && count < 1;

export function useDossier(id: string) {
  return useQuery({
    queryKey: dossierKey(id),
    queryFn: async (): Promise<Shown> => {
      const answer = await api.GET("/api/v1/dossiers/{id}", { params: { path: { id } } });
      return { dossier: unwrap(answer).data, etag: answer.response.headers.get("etag") };
    },
    // Read afresh each time the page opens (the board may have moved it meanwhile), then only as
    // said above.
    staleTime: Infinity,
    refetchOnMount: "always",
    refetchOnReconnect: false,
    retry,
  });
}

/** Reads the dossier and all that hangs on it again (its CV too: a new one has the same cv_url);
 * the version now shown. */
export function useReload(id: string) {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: dossierKey(id) });
    return client.getQueryData<Shown>(dossierKey(id));
  };
}

/** Whether a failure is the API's 412: someone else changed the dossier after this page read it. */
export const changedMeanwhile = (error: unknown) => error instanceof ApiFailure && error.status === 412;

/** Everything about the dossier that a change of it can move: the record, its history, its links. */
function useRefresh(id: string) {
  const client = useQueryClient();
  return {
    shown: (answer: Shown) => client.setQueryData(dossierKey(id), answer),
    record: () => client.invalidateQueries({ queryKey: dossierKey(id), exact: true }),
    history: () => client.invalidateQueries({ queryKey: historyKey(id) }),
  };
}

/** Saves the changed fields of the version shown (If-Match: its ETag). */
export function useSaveDossier(id: string) {
  const client = useQueryClient();
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: async (changes: PatchDossier): Promise<Shown> => {
      const etag = client.getQueryData<Shown>(dossierKey(id))?.etag;
      const answer = await api.PATCH("/api/v1/dossiers/{id}", {
        params: { path: { id }, header: etag ? { "If-Match": etag } : {} },
        body: changes,
      });
      return { dossier: unwrap(answer).data, etag: answer.response.headers.get("etag") };
    },
    onSuccess: (answer) => {
      refresh.shown(answer);
      void refresh.history();
      // The board's columns and the list show this dossier too.
      void client.invalidateQueries({ queryKey: ["board"] });
    },
  });
}

export function useAttachCv(id: string) {
  const client = useQueryClient();
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: async (file: File): Promise<Shown> => {
      const form = new FormData();
      form.append("cv", file);
      const answer = await api.POST("/api/v1/dossiers/{id}/cv", {
        params: { path: { id } },
        body: { cv: file },
        bodySerializer: () => form,
      });
      return { dossier: unwrap(answer).data, etag: answer.response.headers.get("etag") };
    },
    onSuccess: (answer) => {
      refresh.shown(answer);
      void refresh.history();
      void client.invalidateQueries({ queryKey: ["dossier", id, "cv"] });
      void client.invalidateQueries({ queryKey: ["board"] });
    },
  });
}

/** The CV's bytes, fetched with the session, as a blob: URL the page can show in a frame (C20:
 * the console's policy allows frames of blob: URLs only). */
export function useCvBlob(id: string, cvUrl: string | null) {
  return useQuery({
    queryKey: cvKey(id, cvUrl),
    enabled: cvUrl !== null,
    queryFn: async () => {
      const answer = await api.GET("/api/v1/dossiers/{id}/cv", { params: { path: { id } }, parseAs: "blob" });
      const bytes = unwrap(answer) as unknown as Blob;
      return new Blob([bytes], { type: "application/pdf" });
    },
    staleTime: Infinity,
    gcTime: 0,
    retry,
  });
}

export const NOTES_PAGE = 100;

/** The newest notes (the API lists them oldest first), newest first, and how many there are. */
export function useNotes(id: string) {
  return useQuery({
    queryKey: notesKey(id),
    queryFn: async (): Promise<{ notes: Note[]; total: number }> => {
      const page = async (n: number) => unwrap(await api.GET("/api/v1/dossiers/{id}/notes", { params: { path: { id }, query: { page: n, per_page: NOTES_PAGE } } }));
      const first = await page(1);
      const last = Math.ceil(first.meta.total / NOTES_PAGE);
      if (last <= 1) return { notes: first.data.toReversed(), total: first.meta.total };
      // The last page may hold a single note: the one before it too, so that a full page shows.
      const [before, end] = await Promise.all([page(last - 1), page(last)]);
      return { notes: [...before.data, ...end.data].toReversed(), total: end.meta.total };
    },
    retry,
  });
}

export function useAddNote(id: string) {
  const client = useQueryClient();
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: async (body: { content: string; is_internal: boolean }) =>
      unwrap(await api.POST("/api/v1/dossiers/{id}/notes", { params: { path: { id } }, body })).data,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: notesKey(id) });
      void refresh.history();
    },
  });
}

export function useLinkedContacts(id: string) {
  return useQuery({
    queryKey: linksKey(id),
    queryFn: async (): Promise<LinkedContact[]> => unwrap(await api.GET("/api/v1/dossiers/{id}/contacts", { params: { path: { id } } })).data,
    retry,
  });
}

/** The contacts whose name, email, company or role holds `search` (C6), none for an empty search. */
export function useContactSearch(search: string) {
  return useQuery({
    queryKey: ["contacts", "search", search],
    enabled: search.trim() !== "",
    queryFn: async (): Promise<Contact[]> =>
      unwrap(await api.GET("/api/v1/contacts", { params: { query: { search: search.trim(), per_page: 10 } } })).data,
    retry,
  });
}

/** Links, re-links (another role, or primary) and unlinks contacts; the dossier's contact_id
 * follows its primary (C6), so the dossier is read again after each. */
export function useLinks(id: string) {
  const client = useQueryClient();
  const refresh = useRefresh(id);
  const done = () => {
    void client.invalidateQueries({ queryKey: linksKey(id) });
    void refresh.record();
    void refresh.history();
  };
  const link = useMutation({
    mutationFn: async (body: { contact_id: string; role_on_dossier: LinkRole; is_primary?: boolean }) =>
      unwrap(await api.POST("/api/v1/dossiers/{id}/contacts", { params: { path: { id } }, body })).data,
    onSuccess: done,
  });
  const unlink = useMutation({
    mutationFn: async (contactId: string) =>
      unwrap(await api.DELETE("/api/v1/dossiers/{id}/contacts/{contact_id}", { params: { path: { id, contact_id: contactId } } })).data,
    onSuccess: done,
  });
  return { link, unlink };
}

export function useHistory(id: string) {
  return useQuery({
    queryKey: historyKey(id),
    queryFn: async () => unwrap(await api.GET("/api/v1/dossiers/{id}/history", { params: { path: { id } } })),
    retry,
  });
}

/** The organization's members, disabled ones too (an assignee's name outlives their access). */
export function useMembers() {
  return useQuery({
    queryKey: ["members", "list"],
    queryFn: async (): Promise<Member[]> => unwrap(await api.GET("/api/v1/members")).data,
    staleTime: 60_000,
  });
}

/** Those who may be given a dossier: members who can still sign in. */
export const assignable = (members: Member[] | undefined) => members?.filter((member) => member.disabled_at === null) ?? [];

/** POST /dossiers as a form: the fields and the CV in one request, so that a refused CV leaves no
 * dossier behind (C5: nothing is persisted when any part is refused). */
export function useCreateDossier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (fields: CreateDossierForm): Promise<Dossier> => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
      return unwrap(await api.POST("/api/v1/dossiers", { body: fields, bodySerializer: () => form })).data;
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ["board"] }),
  });
}
