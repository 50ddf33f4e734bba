// What happened to the dossier (C18), oldest first, in words, and the time it spent in each stage.
import { useQueries } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { Alert } from "../ui/alert";
import { useHistory, useLinkedContacts } from "./queries";
import type { Flow, HistoryEntry } from "./types";
import { describe, duration, when, type Names } from "./words";

/** The contact ids a history names. */
const contactIds = (entries: HistoryEntry[]) =>
  new Set(entries.flatMap((entry) => (entry.changes.contact_id ?? []).filter((value): value is string => typeof value === "string")));

/** Names of contacts the history names that are no longer linked (read once each; a deleted one
 * stays unnamed). */
function useContactNames(ids: string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: ["contact", id, "name"],
      queryFn: async () => unwrap(await api.GET("/api/v1/contacts/{id}", { params: { path: { id } } })).data.full_name,
      staleTime: Infinity,
      retry: false,
    })),
    combine: (answers) => new Map(ids.flatMap((id, i) => (answers[i]?.data ? [[id, answers[i].data] as const] : []))),
  });
}

interface Props {
  id: string;
  flow: Flow | undefined;
  memberName: (id: string) => string | undefined;
}

export function HistorySection({ id, flow, memberName }: Props) {
  const history = useHistory(id);
  const linked = useLinkedContacts(id);
  const linkedNames = new Map(linked.data?.map((contact) => [contact.contact_id, contact.full_name]));
  const others = [...contactIds(history.data?.data ?? [])].filter((contact) => !linkedNames.has(contact));
  const otherNames = useContactNames(linked.isSuccess ? others : []);
  const names: Names = {
    stage: (stage) => flow?.stages.find((s) => s.id === stage)?.name,
    member: memberName,
    contact: (contact) => linkedNames.get(contact) ?? otherNames.get(contact),
  };
  return (
    <section className="history" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {history.isPending && <p role="status">Loading the history…</p>}
      <Alert error={history.error} />
      {history.data && (
        <>
          <ol className="events" aria-label="What happened, oldest first">
            {history.data.data.map((entry, i) => (
              <li key={`${entry.at}-${i}`}>
                <time dateTime={entry.at}>{when(entry.at)}</time> <span>{describe(entry, names)}</span>
              </li>
            ))}
          </ol>
          {history.data.meta.stages.length > 0 && (
            <>
              <h3>Time in each stage</h3>
              <ul className="stays">
                {history.data.meta.stages.map((stay) => (
                  <li key={`${stay.stage_id}-${stay.entered_at}`}>
                    {names.stage(stay.stage_id) ?? "Another stage"}: {duration(stay.days)}
                    {stay.left_at === null ? " so far" : ""}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
