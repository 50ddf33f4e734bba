// The two messages C22 sends, made from plain data: a reminder (a task's `remind_at` has come) and the
// morning digest (a member's tasks due that local day and overdue; none when there is nothing to
// say). Plain text (C22: every email has a plain-text part), times in the member's time zone, the
// `List-Unsubscribe` link in the headers and at the foot. Pure: time and ids are arguments, so the
// queue can compose inside the transaction that causes the message.
import { localDateTime, localDayRange, type LocalDate } from "./digest-time";
import type { OutgoingMail } from "./message";

/** What a message says of a task (C22's task fields, with names for its dossier and contact). */
export interface MailTask {
  id: string;
  title: string;
  notes?: string | null;
  /** ISO 8601; tasks without one are in no digest. */
  due_at: string | null;
  status: "open" | "done";
  dossier?: { id: string; name: string } | null;
  contact?: { id: string; full_name: string } | null;
  /** Where the task is seen in the console, when the caller knows. */
  url?: string | null;
}

export interface MailRecipient {
  name: string;
  email: string;
  /** An IANA zone (C22: the member's `time_zone`, else DOSSIER_TIME_ZONE, else UTC). */
  time_zone: string;
}

export interface MailLinks {
  /** The member's "My tasks" page. */
  tasks: string;
  /** Turns the digest off (C22), in `List-Unsubscribe` and at the foot of every message. */
  unsubscribe: string;
}

/** Most tasks listed per section of a digest; the rest are counted ("and 12 more"). */
export const DIGEST_SECTION_LIMIT = 50;
/** Longest subject: a title can be 500 code points (C22); a subject line should not. */
const SUBJECT_LIMIT = 150;
/** Longest excerpt of a task's notes in a reminder. */
const NOTES_LIMIT = 2_000;

export interface DigestInput {
  /** The queue's id for the message (its Message-ID). */
  id: string;
  member: MailRecipient;
  /** The local day the digest is for (digest-time.ts's DigestSlot.date). */
  date: LocalDate;
  /** When it is composed: the Date header. */
  now: Date;
  /** The member's tasks; those not open, without a due date or due after `date` are left out here. */
  tasks: readonly MailTask[];
  links: MailLinks;
}

/** Which of `tasks` a digest for local day `date` in `zone` lists: overdue (open, due before the
 * day began) and due that day (open, due within it), each by due time then title. */
export function digestSections(tasks: readonly MailTask[], date: LocalDate, zone: string): { overdue: MailTask[]; today: MailTask[] } {
  const { start, end } = localDayRange(date, zone);
  const overdue: MailTask[] = [];
  const today: MailTask[] = [];
  for (const task of tasks) {
    if (task.status !== "open" || !task.due_at) continue;
    const due = Date.parse(task.due_at);
    if (Number.isNaN(due)) continue;
    if (due < start.getTime()) overdue.push(task);
    else if (due < end.getTime()) today.push(task);
  }
  const order = (a: MailTask, b: MailTask) => Date.parse(a.due_at!) - Date.parse(b.due_at!) || a.title.localeCompare(b.title) || (a.id < b.id ? -1 : 1);
  return { overdue: overdue.sort(order), today: today.sort(order) };
}

/** The morning digest, or null when the member has nothing overdue and nothing due that day. */
export function composeDigest(input: DigestInput): OutgoingMail | null {
  const zone = input.member.time_zone;
  const { overdue, today } = digestSections(input.tasks, input.date, zone);
  if (overdue.length === 0 && today.length === 0) return null;
  const counts = [overdue.length > 0 ? `${overdue.length} overdue` : null, today.length > 0 ? `${today.length} due today` : null].filter(Boolean).join(", ");
  const lines = [`Good morning ${oneLine(input.member.name)},`, "", `Your tasks for ${longDate(input.date)}: ${counts}.`];
  const section = (heading: string, tasks: MailTask[], when: (task: MailTask) => string) => {
    if (tasks.length === 0) return;
    lines.push("", `${heading} (${tasks.length})`);
    for (const task of tasks.slice(0, DIGEST_SECTION_LIMIT)) lines.push(...taskLines(task, when(task)));
    if (tasks.length > DIGEST_SECTION_LIMIT) lines.push(`- and ${tasks.length - DIGEST_SECTION_LIMIT} more`);
  };
  section("Overdue", overdue, (task) => `due ${dateTime(task.due_at!, zone)}`);
  section("Due today", today, (task) => `due ${time(task.due_at!, zone)}`);
  lines.push("", `All your tasks: ${input.links.tasks}`, ...footer(input.links, zone));
  return {
    id: input.id,
    kind: "digest",
    to: { name: input.member.name, address: input.member.email },
    subject: `Your tasks for ${shortDate(input.date)}: ${counts}`,
    text: `${lines.join("\n")}\n`,
    unsubscribeUrl: input.links.unsubscribe,
    createdAt: input.now.toISOString(),
  };
}

export interface ReminderInput {
  id: string;
  member: MailRecipient;
  task: MailTask;
  now: Date;
  links: MailLinks;
}

/** The email a task's `remind_at` sends its assignee. */
export function composeReminder(input: ReminderInput): OutgoingMail {
  const zone = input.member.time_zone;
  const { task } = input;
  const title = oneLine(task.title);
  const lines = [`Reminder: ${title}`, ""];
  if (task.due_at) lines.push(`Due: ${dateTime(task.due_at, zone)} (${zone})`);
  if (task.dossier) lines.push(`Dossier: ${oneLine(task.dossier.name)}`);
  if (task.contact) lines.push(`Contact: ${oneLine(task.contact.full_name)}`);
  if (task.url) lines.push(`Open: ${task.url}`);
  const notes = task.notes?.replace(/\r\n?/g, "\n").trim();
  if (notes) lines.push("", cut(notes, NOTES_LIMIT));
  lines.push("", `All your tasks: ${input.links.tasks}`, ...footer(input.links, zone));
  return {
    id: input.id,
    kind: "reminder",
    to: { name: input.member.name, address: input.member.email },
    subject: cut(`Reminder: ${title}`, SUBJECT_LIMIT),
    text: `${lines.join("\n")}\n`,
    unsubscribeUrl: input.links.unsubscribe,
    createdAt: input.now.toISOString(),
  };
}

function taskLines(task: MailTask, when: string): string[] {
  const context = [task.dossier ? oneLine(task.dossier.name) : null, task.contact ? oneLine(task.contact.full_name) : null].filter(Boolean).join(", ");
  const first = `- ${cut(oneLine(task.title), 200)} (${when}${context ? `; ${context}` : ""})`;
  return task.url ? [first, `  ${task.url}`] : [first];
}

function footer(links: MailLinks, zone: string): string[] {
  return ["", "--", `Dossier sends a digest of your tasks at 08:00 (${zone}) on days you have some due or overdue.`, `Turn the digest off: ${links.unsubscribe}`];
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "Sunday 29 November 2026": written here, not by Intl, so the words do not change with the ICU
 * version. */
function longDate(date: LocalDate): string {
  const [year, month, day] = date.split("-").map(Number);
  return `${WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()]} ${day} ${MONTHS[month - 1]} ${year}`;
}

/** "Sun 29 Nov" */
function shortDate(date: LocalDate): string {
  const [year, month, day] = date.split("-").map(Number);
  return `${WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()].slice(0, 3)} ${day} ${MONTHS[month - 1].slice(0, 3)}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "14:05" in `zone`. */
function time(iso: string, zone: string): string {
  const t = localDateTime(Date.parse(iso), zone);
  return `${pad(t.hour)}:${pad(t.minute)}`;
}

/** "Fri 27 Nov 2026, 14:05" in `zone`. */
function dateTime(iso: string, zone: string): string {
  const t = localDateTime(Date.parse(iso), zone);
  return `${shortDate(`${t.year}-${pad(t.month)}-${pad(t.day)}`)} ${t.year}, ${pad(t.hour)}:${pad(t.minute)}`;
}

/** Text for one line: line breaks and control characters become spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
}

/** At most `limit` code points, with "…" when cut. */
function cut(text: string, limit: number): string {
  const points = [...text];
  return points.length <= limit ? text : `${points.slice(0, limit - 1).join("")}…`;
}
