// How tasks are grouped and their dates said (C22's "My tasks": overdue, today, upcoming), in the
// browser's own time zone. Pure: the instant is an argument.
import type { Task } from "./types";

export type Group = "overdue" | "today" | "upcoming" | "undated";

/** The start of the local day after `now`'s. */
const endOfDay = (now: Date) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();

/** Which group an open task is in at `now`: overdue (due before now), today (due later today), upcoming, undated. */
export function groupOf(task: Pick<Task, "due_at">, now: Date): Group {
  if (task.due_at === null) return "undated";
  const due = Date.parse(task.due_at);
  if (due < now.getTime()) return "overdue";
  return due < endOfDay(now) ? "today" : "upcoming";
}

export const GROUPS: { group: Group; label: string }[] = [
  { group: "overdue", label: "Overdue" },
  { group: "today", label: "Today" },
  { group: "upcoming", label: "Upcoming" },
  { group: "undated", label: "No due date" },
];

const dateTime = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** "Tue 1 Dec, 09:00" in the browser's zone. */
export const dueText = (iso: string) => dateTime.format(new Date(iso));

/** A `datetime-local` control's value as an ISO instant (the browser's zone), or null when empty. */
export function fromLocalInput(value: string): string | null {
  if (value === "") return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
