// The list's filters as they stand in the address's query string (C14 screen 3): GET /dossiers's
// own parameter names, so that the address reads like the API call it makes. A value the page does
// not know (a misspelt status) is left out rather than sent.
import type { components, operations } from "../api/schema";
import { whole } from "./paging";

export type DossierQuery = NonNullable<operations["listDossiers"]["parameters"]["query"]>;
export type DossierType = components["schemas"]["DossierType"];
export type DossierStatus = components["schemas"]["DossierStatus"];

export const TYPES: readonly DossierType[] = ["candidate", "sales"];
export const STATUSES: readonly DossierStatus[] = ["active", "won", "lost", "archived"];
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

/** The names the filters take in the query string; `page` and `per_page` are the pages'. */
export const FILTER_NAMES = ["type", "status", "flow_id", "stage_id", "assigned_to", "overdue", "q", "updated_since"] as const;

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  allowed.includes(value as T) ? (value as T) : undefined;

/** `updated_since` stands in the address as a day (YYYY-MM-DD), sent as that day's start in UTC. */
const dayStart = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : undefined);

const text = (value: string | null) => (value && value.trim() !== "" ? value : undefined);

/** GET /dossiers's query for the address's query string. */
export function queryOf(params: URLSearchParams): DossierQuery & { page: number; per_page: number } {
  const overdue = params.get("overdue");
  return {
    type: oneOf(params.get("type"), TYPES),
    status: oneOf(params.get("status"), STATUSES),
    flow_id: text(params.get("flow_id")),
    stage_id: text(params.get("stage_id")),
    assigned_to: text(params.get("assigned_to")),
    overdue: overdue === "true" ? true : overdue === "false" ? false : undefined,
    q: text(params.get("q")),
    updated_since: dayStart(params.get("updated_since")),
    page: whole(params.get("page"), 1),
    per_page: whole(params.get("per_page"), DEFAULT_PAGE_SIZE, 100),
  };
}

/** The query string with `changes` applied (an empty value removes the parameter), back on page 1. */
export function withFilters(params: URLSearchParams, changes: Partial<Record<(typeof FILTER_NAMES)[number] | "per_page", string>>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  next.delete("page");
  return next;
}

/** Whether any filter is set (the "Clear filters" link shows then). */
export const filtered = (params: URLSearchParams) => FILTER_NAMES.some((name) => params.has(name));
