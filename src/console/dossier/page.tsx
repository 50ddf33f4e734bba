// Screen 4 (C14): one dossier. Its fields, stage, status and assignee edited in place, the CV, the
// tasks (C22), the notes, the linked contacts and the history. A viewer sees the same page as text, with no control
// that would fail.
import { Link } from "wouter";
import { ApiFailure, messageOf } from "../api/client";
import { canWriteDossiers, useMember } from "../api/session";
import { useFlows } from "../board/queries";
import { ContactsSection } from "./contacts";
import { CvSection } from "./cv";
import { DetailsForm, DetailsText, STATUSES } from "./details";
import { HistorySection } from "./history";
import { NotesSection } from "./notes";
import { DossierTasks } from "../tasks/dossier-tasks";
import { useDossier, useMembers, useReload } from "./queries";

export function DossierPage({ id }: { id: string }) {
  const member = useMember();
  const canWrite = canWriteDossiers(member);
  const shown = useDossier(id);
  const reload = useReload(id);
  const flows = useFlows();
  const members = useMembers();
  if (shown.isPending) return <p role="status">Loading the dossier…</p>;
  if (shown.isError) {
    if (shown.error instanceof ApiFailure && shown.error.status === 404) {
      return (
        <>
          <title>No such dossier · Dossier</title>
          <h1>No such dossier</h1>
          <p>This dossier does not exist, or is not your organization's.</p>
          <p>
            <Link href="/dossiers">All dossiers</Link>
          </p>
        </>
      );
    }
    return (
      <p role="alert" className="error">
        The dossier could not be read: {messageOf(shown.error)}
      </p>
    );
  }
  const { dossier } = shown.data;
  const flow = flows.data?.find((f) => f.id === dossier.flow_id);
  const memberName = (memberId: string) => members.data?.find((m) => m.id === memberId)?.name;
  const stage = flow?.stages.find((s) => s.id === dossier.current_stage_id);
  const status = STATUSES.find((s) => s.value === dossier.status)?.label ?? dossier.status;
  return (
    <article className="dossier" aria-labelledby="dossier-name">
      <title>{`${dossier.name} · Dossier`}</title>
      <header className="dossier-head">
        <h1 id="dossier-name">{dossier.name}</h1>
        <p className="hint">
          {dossier.type === "sales" ? "Sales" : "Candidate"}
          {flow && (
            <>
              {" in "}
              <Link href={`/board/${flow.id}`}>{flow.name}</Link>
            </>
          )}
          {stage && `, ${stage.name}`} · {status}
        </p>
      </header>
      <div className="dossier-grid">
        <div className="main-column">
          <section aria-labelledby="details-heading">
            <h2 id="details-heading">Details</h2>
            {canWrite ? (
              <DetailsForm shown={shown.data} flow={flow} onReload={reload} />
            ) : (
              <DetailsText shown={shown.data} flow={flow} memberName={memberName} />
            )}
          </section>
          <CvSection shown={shown.data} canWrite={canWrite} />
        </div>
        <div className="side-column">
          <DossierTasks id={dossier.id} canWrite={canWrite} />
          <NotesSection id={dossier.id} canWrite={canWrite} />
          <ContactsSection id={dossier.id} canWrite={canWrite} />
          <HistorySection id={dossier.id} flow={flow} memberName={memberName} />
        </div>
      </div>
    </article>
  );
}
