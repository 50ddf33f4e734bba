// The board's data: the flows, the members (assignees' names), each column's dossiers 50 at a time
// under the board's filters, their task marks (C22), and the move of a card, shown at once and
// undone if the API refuses it.
import { keepPreviousData, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient, type InfiniteData, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { api, unwrap, type Dossier, type Flow } from "../api/client";
import type { DossierFilter } from "./filters";
import { dealSums } from "./sums";

export const COLUMN_PAGE = 50;

export function useFlows() {
  return useQuery({
    queryKey: ["flows"],
    queryFn: async () => unwrap(await api.GET("/api/v1/flows", { params: { query: { per_page: 100 } } })).data,
    staleTime: 60_000,
  });
}

/** Member names by id, for assignees; an id that is no member's shows as it is. */
export function useMemberNames() {
  return useQuery({
    queryKey: ["members"],
    queryFn: async () => new Map(unwrap(await api.GET("/api/v1/members")).data.map((member) => [member.id, member.name])),
    staleTime: 60_000,
  });
}

interface ColumnPage {
  data: Dossier[];
  total: number;
  page: number;
}
type Column = InfiniteData<ColumnPage, unknown>;

const columnKey = (flowId: string, stageId: string, filter: DossierFilter): QueryKey => ["board", flowId, stageId, filter];

export function useColumn(flowId: string, stageId: string, filter: DossierFilter) {
  return useInfiniteQuery({
    queryKey: columnKey(flowId, stageId, filter),
    initialPageParam: 1,
    queryFn: async ({ pageParam }): Promise<ColumnPage> => {
      const answer = unwrap(
        await api.GET("/api/v1/dossiers", { params: { query: { ...filter, flow_id: flowId, stage_id: stageId, page: pageParam, per_page: COLUMN_PAGE } } }),
      );
      return { data: answer.data, total: answer.meta.total, page: answer.meta.page };
    },
    getNextPageParam: (last, pages) => (pages.reduce((sum, page) => sum + page.data.length, 0) < last.total && last.data.length > 0 ? last.page + 1 : undefined),
    // While another filter's cards load, the column keeps the cards it shows.
    placeholderData: keepPreviousData,
  });
}

/** How many dossiers of the flow match the filter, the sum of its columns' counts; null until every
 * column has its answer. Read from the cache, so that only the reader draws again as columns load. */
export function useMatching(flowId: string, stageIds: string[], filter: DossierFilter): number | null {
  const client = useQueryClient();
  const subscribe = useCallback((changed: () => void) => client.getQueryCache().subscribe(changed), [client]);
  const snapshot = () => {
    let sum = 0;
    for (const stageId of stageIds) {
      const column = client.getQueryData<Column>(columnKey(flowId, stageId, filter));
      if (!column) return null;
      sum += columnCards(column).total;
    }
    return sum;
  };
  return useSyncExternalStore(subscribe, snapshot);
}

/** A sales flow's open pipeline per currency, and its value weighted by each stage's win
 * probability: the API's own figures (GET /flows/{id}/stats, C18), read again after each move. */
export function usePipeline(flow: Flow) {
  return useQuery({
    queryKey: ["board-sums", flow.id, "pipeline"],
    enabled: flow.type === "sales",
    queryFn: async () => unwrap(await api.GET("/api/v1/flows/{id}/stats", { params: { path: { id: flow.id } } })).data.pipeline ?? [],
    staleTime: 30_000,
  });
}

/** The largest page GET /dossiers gives, and how many such pages a column's sums read at most. */
const SUM_PAGE = 100;
const SUM_PAGES = 100;

/** A sales column's deal value per currency over every dossier of its stage under the filters, not
 * only the cards loaded (issue 39, point 2): the cards themselves once all are loaded, else the
 * stage's dossiers read 100 at a time. GET /flows/{id}/stats gives the open value of the whole
 * flow only, not of each stage: see docs/console.md. Read again after each move. */
export function useStageSums(flow: Flow, stageId: string, filter: DossierFilter, column: Column | undefined) {
  const { cards, total } = columnCards(column);
  const whole = column !== undefined && cards.length >= total;
  const query = useQuery({
    queryKey: ["board-sums", flow.id, stageId, filter, total],
    enabled: flow.type === "sales" && column !== undefined && !whole,
    queryFn: async () => {
      const all: Dossier[] = [];
      for (let page = 1; page <= SUM_PAGES; page++) {
        const answer = unwrap(await api.GET("/api/v1/dossiers", { params: { query: { ...filter, flow_id: flow.id, stage_id: stageId, page, per_page: SUM_PAGE } } }));
        all.push(...answer.data);
        if (answer.data.length < SUM_PAGE || all.length >= answer.meta.total) break;
      }
      return dealSums(all);
    },
    staleTime: 30_000,
  });
  if (flow.type !== "sales") return { data: undefined, isPending: false, error: null };
  if (whole) return { data: dealSums(cards), isPending: false, error: null };
  return { data: query.data, isPending: query.isPending, error: query.error };
}

/** A card's task marks (C22): how many open tasks its dossier has, and when those with a due date
 * are due (ms since the epoch), so that the card tells at each drawing which are overdue. */
export interface TaskMarks {
  open: number;
  due: number[];
}

/** The largest page GET /tasks gives (and how many dossier_id it takes at once), and how many
 * pages of a column page's open tasks the marks read at most. */
const TASK_PAGE = 100;
const TASK_PAGES = 20;

/** Under the tasks' prefix: a change of a task anywhere in the console (tasks/queries.ts) reads the
 * marks again. */
const MARKS_PAGE: QueryKey = ["tasks", "board-marks"];

/** The task marks of a column's cards: one GET /tasks per page of cards (its 50 dossiers' ids as
 * repeated dossier_id, open tasks only), never one request per card. Answers a card's marks by its
 * dossier's id: from its page's answer, else (a card that just moved in, while its new page's
 * marks load) from the answer of the page it came from. */
export function useColumnTaskMarks(column: Column | undefined): (dossierId: string) => TaskMarks | undefined {
  const client = useQueryClient();
  const pages = useQueries({
    queries: (column?.pages ?? []).map((page) => {
      const ids = page.data.map((dossier) => dossier.id);
      return {
        queryKey: [...MARKS_PAGE, ids],
        enabled: ids.length > 0,
        staleTime: 30_000,
        queryFn: async (): Promise<Record<string, TaskMarks>> => {
          const marks: Record<string, TaskMarks> = Object.fromEntries(ids.map((id) => [id, { open: 0, due: [] }]));
          for (let p = 1, read = 0; p <= TASK_PAGES; p++) {
            const answer = unwrap(await api.GET("/api/v1/tasks", { params: { query: { dossier_id: ids, status: "open", page: p, per_page: TASK_PAGE } } }));
            for (const task of answer.data) {
              const mark = task.dossier_id ? marks[task.dossier_id] : undefined;
              if (!mark) continue;
              mark.open += 1;
              if (task.due_at !== null) mark.due.push(Date.parse(task.due_at));
            }
            read += answer.data.length;
            if (answer.data.length < TASK_PAGE || read >= answer.meta.total) break;
          }
          return marks;
        },
      };
    }),
  });
  const own = new Map<string, TaskMarks>();
  for (const page of pages) for (const [id, mark] of Object.entries(page.data ?? {})) own.set(id, mark);
  return (dossierId) => own.get(dossierId) ?? cachedTaskMarks(client, dossierId);
}

/** A dossier's task marks from any page's answer the cache holds (the card dragged, a card that
 * just moved), or undefined. */
export function cachedTaskMarks(client: QueryClient, dossierId: string): TaskMarks | undefined {
  for (const [, marks] of client.getQueriesData<Record<string, TaskMarks>>({ queryKey: MARKS_PAGE })) {
    if (marks?.[dossierId]) return marks[dossierId];
  }
  return undefined;
}

/** The cards a column holds now, and how many dossiers are in its stage. */
export function columnCards(column: Column | undefined): { cards: Dossier[]; total: number } {
  if (!column) return { cards: [], total: 0 };
  return { cards: column.pages.flatMap((page) => page.data), total: column.pages.at(-1)?.total ?? 0 };
}

/** A column with `dossier` taken out (its count one less). */
function without(column: Column, id: string): Column {
  return { ...column, pages: column.pages.map((page) => ({ ...page, data: page.data.filter((d) => d.id !== id), total: page.total - 1 })) };
}

/** A column with `dossier` first (its count one more). */
function withFirst(column: Column, dossier: Dossier): Column {
  return { ...column, pages: column.pages.map((page, i) => ({ ...page, data: i === 0 ? [dossier, ...page.data] : page.data, total: page.total + 1 })) };
}

export interface Move {
  dossier: Dossier;
  to: string;
}

/** Moves a card: both columns change at once; a refusal puts them back as they were and the
 * mutation's error carries the API's message. */
export function useMoveCard(flowId: string, filter: DossierFilter) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ dossier, to }: Move) =>
      unwrap(await api.PATCH("/api/v1/dossiers/{id}", { params: { path: { id: dossier.id } }, body: { current_stage_id: to } })).data,
    onMutate: async ({ dossier, to }) => {
      const from = columnKey(flowId, dossier.current_stage_id ?? "", filter);
      const into = columnKey(flowId, to, filter);
      await Promise.all([client.cancelQueries({ queryKey: from }), client.cancelQueries({ queryKey: into })]);
      const before = { from: client.getQueryData<Column>(from), into: client.getQueryData<Column>(into) };
      if (before.from) client.setQueryData(from, without(before.from, dossier.id));
      if (before.into) client.setQueryData(into, withFirst(before.into, { ...dossier, current_stage_id: to }));
      return { from, into, before };
    },
    onError: (_error, _move, saved) => {
      if (!saved) return;
      client.setQueryData(saved.from, saved.before.from);
      client.setQueryData(saved.into, saved.before.into);
    },
    onSuccess: (moved, _move, saved) => {
      // The server's record (its stage_entered_at, stage_due_at) replaces the guess.
      const column = client.getQueryData<Column>(saved.into);
      if (column) client.setQueryData(saved.into, { ...column, pages: column.pages.map((page) => ({ ...page, data: page.data.map((d) => (d.id === moved.id ? moved : d)) })) });
      // A new stage has a new deadline: whether the card is still overdue is the API's to say.
      if (filter.overdue) void client.invalidateQueries({ queryKey: saved.into });
    },
    // Both columns' sums change with the move.
    onSettled: () => void client.invalidateQueries({ queryKey: ["board-sums", flowId] }),
  });
}
