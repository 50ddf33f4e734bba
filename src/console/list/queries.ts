// The list's data: one page of GET /dossiers for the filters in the address. The page shown stays
// while the next one loads, so the table does not jump.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import type { DossierQuery } from "./filters";

export function useDossierPage(query: DossierQuery) {
  return useQuery({
    queryKey: ["dossiers", "list", query],
    queryFn: async () => unwrap(await api.GET("/api/v1/dossiers", { params: { query } })),
    placeholderData: keepPreviousData,
  });
}
