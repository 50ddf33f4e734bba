// A dossier's history (C18) in words: who did what, with stages, members and contacts by name.
import type { HistoryEntry } from "./types";

/** Names for the ids a history holds; an id none of them knows is told in general words. */
export interface Names {
  stage: (id: string) => string | undefined;
  member: (id: string) => string | undefined;
  contact: (id: string) => string | undefined;
}

export const FIELD_LABELS: Record<string, string> = {
  name: "name",
  email: "email",
  phone: "phone",
  company: "company",
  role: "role",
  contact_person: "contact person",
  deal_size: "deal size",
  deal_currency: "currency",
  status: "status",
  assigned_to: "assignee",
  intake_notes: "intake notes",
  current_stage_id: "stage",
  flow_id: "flow",
  type: "type",
  contact_id: "primary contact",
  cv_url: "CV",
};

export const LINK_ROLES: Record<string, string> = {
  primary: "primary",
  hiring_manager: "hiring manager",
  decision_maker: "decision maker",
  champion: "champion",
  gatekeeper: "gatekeeper",
  introducer: "introducer",
  other: "other",
};

function actorOf(entry: HistoryEntry): string {
  const actor = entry.actor;
  if (!actor) return "Someone";
  switch (actor.type) {
    case "member":
      return actor.name ?? "A member";
    case "key":
      return actor.name ? `The API key “${actor.name}”` : "An API key";
    case "email":
      return `An email from ${actor.id}`;
    case "cli":
      // The command line names the system user that ran it, "unknown" when it could not tell.
      return actor.id && actor.id !== "unknown" ? `${actor.id} on the command line` : "Someone on the server's command line";
    case "import":
      return actor.name ? `The import of “${actor.name}”` : "A CSV import";
  }
}

function valueOf(field: string, value: unknown, names: Names): string {
  if (value === null || value === undefined || value === "") return "nothing";
  const text = String(value);
  if (field === "current_stage_id") return names.stage(text) ?? "another stage";
  if (field === "assigned_to") return names.member(text) ?? "another member";
  if (field === "contact_id") return names.contact(text) ?? "another contact";
  return `“${text}”`;
}

const pairOf = (entry: HistoryEntry, field: string): [unknown, unknown] => {
  const pair = entry.changes[field];
  return [pair?.[0] ?? null, pair?.[1] ?? null];
};

const list = (parts: string[]) => (parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`);

/** One sentence for one entry. */
export function describe(entry: HistoryEntry, names: Names): string {
  const who = actorOf(entry);
  const contact = () => {
    const [before, after] = pairOf(entry, "contact_id");
    const id = String(after ?? before ?? "");
    return names.contact(id) ?? "a contact";
  };
  switch (entry.kind) {
    case "created": {
      const [, stage] = pairOf(entry, "current_stage_id");
      return stage ? `${who} created it in ${valueOf("current_stage_id", stage, names)}.` : `${who} created it.`;
    }
    case "stage_changed": {
      const [from, to] = pairOf(entry, "current_stage_id");
      return `${who} moved it from ${valueOf("current_stage_id", from, names)} to ${valueOf("current_stage_id", to, names)}.`;
    }
    case "updated": {
      const parts = Object.keys(entry.changes).map((field) => {
        const [from, to] = pairOf(entry, field);
        return `${FIELD_LABELS[field] ?? field} from ${valueOf(field, from, names)} to ${valueOf(field, to, names)}`;
      });
      return parts.length ? `${who} changed ${list(parts)}.` : `${who} changed it.`;
    }
    case "cv_attached":
      return pairOf(entry, "cv_url")[0] ? `${who} replaced the CV.` : `${who} attached a CV.`;
    case "note_added":
      return `${who} added a note.`;
    case "archived":
      return `${who} archived it.`;
    case "contact_linked": {
      const [wasPrimary, isPrimary] = pairOf(entry, "is_primary");
      const [roleBefore, role] = pairOf(entry, "role_on_dossier");
      const [contactBefore] = pairOf(entry, "contact_id");
      if (contactBefore === null) {
        return `${who} linked ${contact()}${role ? ` as ${LINK_ROLES[String(role)] ?? role}` : ""}${isPrimary === true ? ", the primary contact" : ""}.`;
      }
      const parts: string[] = [];
      if (isPrimary === true && wasPrimary !== true) parts.push(`made ${contact()} the primary contact`);
      if (isPrimary === false && wasPrimary === true) parts.push(`made ${contact()} no longer the primary contact`);
      if (role && role !== roleBefore) parts.push(`made ${contact()}'s role ${LINK_ROLES[String(role)] ?? role}`);
      return parts.length ? `${who} ${list(parts)}.` : `${who} linked ${contact()} again.`;
    }
    case "contact_unlinked":
      return `${who} unlinked ${contact()}.`;
    case "task_created": {
      const [, title] = pairOf(entry, "title");
      return `${entry.actor ? who : "Dossier"} added the task “${String(title ?? "")}”.`;
    }
    case "task_done":
      return `${who} completed a task.`;
  }
}

/** Days as people say them: "3.5 days", "under an hour". */
export function duration(days: number): string {
  if (days >= 1) return `${Number(days.toFixed(1))} ${days < 1.05 ? "day" : "days"}`;
  const hours = days * 24;
  if (hours >= 1) return `${Math.round(hours)} ${Math.round(hours) === 1 ? "hour" : "hours"}`;
  return "under an hour";
}

/** A moment in the console's one format (ui/format.ts). */
export { formatMoment as when } from "../ui/format";
