// The import page's calls (C21): the log of imports, one import followed while it runs, starting
// one (a dry run or not) and reverting one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";

export type Import = components["schemas"]["Import"];
export type ImportForm = components["schemas"]["ImportForm"];

const LOG = ["imports"] as const;
const running = (i: Import | undefined) => i?.status === "queued" || i?.status === "running";

export function useImportLog() {
  return useQuery({
    queryKey: LOG,
    queryFn: async () => unwrap(await api.GET("/api/v1/imports", { params: { query: { page: 1, per_page: 20 } } })),
  });
}

/** One import, asked again every half second while it is queued or running. */
export function useImport(id: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ["imports", id],
    enabled: id !== null,
    queryFn: async () => {
      const found = unwrap(await api.GET("/api/v1/imports/{id}", { params: { path: { id: id! } } })).data;
      if (!running(found)) void client.invalidateQueries({ queryKey: LOG, exact: true });
      return found;
    },
    refetchInterval: (query) => (running(query.state.data) ? 500 : false),
  });
}

export function useStartImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ImportForm): Promise<Import> => {
      const form = new FormData();
      for (const [name, value] of Object.entries(body)) if (value !== undefined) form.append(name, value);
      return unwrap(await api.POST("/api/v1/imports", { body, bodySerializer: () => form })).data;
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: LOG, exact: true }),
  });
}

export function useRevertImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<Import> => unwrap(await api.POST("/api/v1/imports/{id}/revert", { params: { path: { id } } })).data,
    onSuccess: () => void client.invalidateQueries({ queryKey: LOG }),
  });
}
