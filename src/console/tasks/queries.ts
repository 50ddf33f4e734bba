// Tasks (C22) and the member's own settings, read and changed through the typed client. A change of
// a task refreshes every list of tasks (mine, a dossier's) and the dossier's history.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import type { CreateTask, MemberSettings, PatchTask, Task } from "./types";

const TASKS = ["tasks"] as const;
const PAGE = 100;

/** My open tasks (assigned_to=me), in the API's order: due first, undated last. */
export function useMyTasks() {
  return useQuery({
    queryKey: [...TASKS, "mine"],
    queryFn: async (): Promise<{ tasks: Task[]; total: number }> => {
      const answer = unwrap(await api.GET("/api/v1/tasks", { params: { query: { assigned_to: "me", status: "open", per_page: PAGE } } }));
      return { tasks: answer.data, total: answer.meta.total };
    },
  });
}

/** A dossier's tasks, open ones first (each group in the API's order). */
export function useDossierTasks(dossierId: string) {
  return useQuery({
    queryKey: [...TASKS, "dossier", dossierId],
    queryFn: async (): Promise<Task[]> => {
      const read = async (status: "open" | "done") =>
        unwrap(await api.GET("/api/v1/dossiers/{id}/tasks", { params: { path: { id: dossierId }, query: { status, per_page: PAGE } } })).data;
      const [open, done] = await Promise.all([read("open"), read("done")]);
      return [...open, ...done];
    },
  });
}

function useRefreshTasks() {
  const client = useQueryClient();
  return (task: Task) => {
    void client.invalidateQueries({ queryKey: TASKS });
    if (task.dossier_id) void client.invalidateQueries({ queryKey: ["dossier", task.dossier_id, "history"] });
  };
}

export function useAddTask() {
  const refresh = useRefreshTasks();
  return useMutation({
    mutationFn: async (body: CreateTask): Promise<Task> => unwrap(await api.POST("/api/v1/tasks", { body })).data,
    onSuccess: refresh,
  });
}

export function useUpdateTask() {
  const refresh = useRefreshTasks();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: PatchTask }): Promise<Task> =>
      unwrap(await api.PATCH("/api/v1/tasks/{id}", { params: { path: { id } }, body: changes })).data,
    onSuccess: refresh,
  });
}

const SETTINGS = ["session", "member-settings"] as const;

export function useMySettings() {
  return useQuery({ queryKey: SETTINGS, queryFn: async (): Promise<MemberSettings> => unwrap(await api.GET("/api/v1/session/member")).data });
}

export function useSaveMySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (changes: { time_zone?: string | null; digest?: boolean }): Promise<MemberSettings> =>
      unwrap(await api.PATCH("/api/v1/session/member", { body: changes })).data,
    onSuccess: (settings) => client.setQueryData(SETTINGS, settings),
  });
}

export function useNewCalendarLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<string> => unwrap(await api.POST("/api/v1/session/calendar-link")).data.url,
    onSuccess: () => void client.invalidateQueries({ queryKey: SETTINGS }),
  });
}

/** The mail log's newest page (admins). */
export function useMailLog() {
  return useQuery({
    queryKey: ["mail-log"],
    queryFn: async () => unwrap(await api.GET("/api/v1/mail-log", { params: { query: { per_page: PAGE } } })),
  });
}
