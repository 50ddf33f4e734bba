// The board's filters (C14: assignee, overdue, text; C22: my open tasks), kept in the address's
// query string so that a reload or a shared link shows the same board:
// `?assignee=me|<member id>&overdue=1&tasks=mine&q=text`. Each becomes one of GET /dossiers's own
// filters, so a column's count is the API's total under it.
import { useSearchParams } from "wouter";
import type { operations } from "../api/schema";

/** The part of GET /dossiers's query that the filters set. */
export type DossierFilter = Pick<NonNullable<operations["listDossiers"]["parameters"]["query"]>, "assigned_to" | "overdue" | "q" | "task_assigned_to">;

export interface BoardFilter {
  /** "me", a member's id, or null for anyone. */
  assignee: string | null;
  overdue: boolean;
  /** Only dossiers with an open task assigned to the signed-in member (C22). */
  myTasks: boolean;
  q: string;
}

export const NO_FILTER: BoardFilter = { assignee: null, overdue: false, myTasks: false, q: "" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filter an address asks for; what is not understood is left out rather than refused. */
export function readFilter(params: URLSearchParams): BoardFilter {
  const assignee = params.get("assignee");
  return {
    assignee: assignee === "me" || (assignee !== null && UUID.test(assignee)) ? assignee.toLowerCase() : null,
    overdue: params.get("overdue") === "1",
    myTasks: params.get("tasks") === "mine",
    q: params.get("q")?.trim() ?? "",
  };
}

/** `params` with the filter's entries replaced (other entries stay). */
export function writeFilter(params: URLSearchParams, filter: BoardFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string | null) => (value ? next.set(name, value) : next.delete(name));
  set("assignee", filter.assignee);
  set("overdue", filter.overdue ? "1" : null);
  set("tasks", filter.myTasks ? "mine" : null);
  set("q", filter.q.trim() || null);
  return next;
}

export const isFiltered = (filter: BoardFilter) => filter.assignee !== null || filter.overdue || filter.myTasks || filter.q.trim() !== "";

/** GET /dossiers's query for the filter, "me" being the signed-in member. */
export function apiFilter(filter: BoardFilter, memberId: string): DossierFilter {
  return {
    ...(filter.assignee ? { assigned_to: filter.assignee === "me" ? memberId : filter.assignee } : {}),
    ...(filter.overdue ? { overdue: true } : {}),
    ...(filter.myTasks ? { task_assigned_to: memberId } : {}),
    ...(filter.q.trim() ? { q: filter.q.trim() } : {}),
  };
}

/** The filter in the address, and a way to change it (the history entry is replaced, not added). */
export function useBoardFilter(): [BoardFilter, (filter: BoardFilter) => void] {
  const [params, setParams] = useSearchParams();
  return [readFilter(params), (filter) => setParams((current) => writeFilter(current, filter), { replace: true })];
}
