// Settings → Mail log (C22): the reminders and digests sent to the organization's members, newest
// first, with what became of each.
import { Alert } from "../ui/alert";
import { useMailLog } from "../tasks/queries";
import { when } from "../dossier/words";

const STATUS: Record<string, string> = { queued: "Waiting", sending: "Sending", sent: "Sent", failed: "Failed" };

export function MailLogSettings() {
  const log = useMailLog();
  return (
    <>
      <title>Mail log · Settings · Dossier</title>
      <h1>Mail log</h1>
      <p className="hint">Reminders and morning digests, newest first. A refused message shows the mail server's reply.</p>
      {log.isPending && <p role="status">Loading the mail log…</p>}
      <Alert error={log.error} />
      {log.data && log.data.meta.total === 0 && <p>No mail sent yet. Without DOSSIER_SMTP_URL the server sends none.</p>}
      {log.data && log.data.data.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Mail log">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Reply or error</th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.created_at}>{when(entry.created_at)}</time>
                  </td>
                  <td>{entry.kind}</td>
                  <td>{entry.recipient}</td>
                  <td>{entry.subject}</td>
                  <td>{STATUS[entry.status] ?? entry.status}</td>
                  <td>{entry.attempts}</td>
                  <td>{entry.status === "sent" ? entry.reply : (entry.last_error ?? "")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
