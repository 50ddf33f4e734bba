// Settings → Webhook (C7, C13): where events are sent, its signing secret (shown once, when set and
// when rotated), and the delivery log, each delivery with its attempts and, once it has failed, a
// Retry button.
import { Fragment, useState, type FormEvent } from "react";
import { messageOf } from "../api/client";
import { Alert } from "../ui/alert";
import { Field } from "../ui/field";
import { Confirm, otherRefusal, refusalFor, ShownOnce, when } from "./parts";
import { DELIVERY_PAGE, useDeliveries, useDelivery, useEndpoint, useRemoveEndpoint, useRetryDelivery, useRotateSecret, useSetEndpoint } from "./queries";
import type { Delivery, DeliveryStatus, Endpoint } from "./types";
import { TableScroll } from "../ui/table-scroll";

const FIELDS = ["url"] as const;
const STATUSES: readonly DeliveryStatus[] = ["pending", "succeeded", "failed", "skipped"];

export function WebhookSettings() {
  const endpoint = useEndpoint();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <h1>Webhook</h1>
      <p className="hint">Dossier sends every event to one address of yours, signed with a secret (X-Service-Signature).</p>
      {endpoint.isPending && <p role="status">Loading the endpoint…</p>}
      {endpoint.isError && <p role="alert">{messageOf(endpoint.error)}</p>}
      {endpoint.isSuccess && <EndpointForm endpoint={endpoint.data} onSecret={setSecret} />}
      {secret && (
        <ShownOnce label="Signing secret" value={secret} onDone={() => setSecret(null)}>
          Receivers check each delivery's signature with this secret. Copy it now: it is not shown again.
        </ShownOnce>
      )}
      <DeliveryLog endpoint={endpoint.data ?? null} />
    </>
  );
}

function EndpointForm({ endpoint, onSecret }: { endpoint: Endpoint | null; onSecret: (secret: string) => void }) {
  const set = useSetEndpoint();
  const remove = useRemoveEndpoint();
  const rotate = useRotateSecret();
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate(url, { onSuccess: (saved) => onSecret(saved.secret) });
  };
  const other = otherRefusal(set.error, FIELDS) ?? (remove.error ? messageOf(remove.error) : null) ?? (rotate.error ? messageOf(rotate.error) : null);
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading">Endpoint</h2>
      <p role="status" className={endpoint && !endpoint.enabled ? "error" : undefined}>
        {endpoint === null
          ? "No endpoint is set: events are recorded as skipped and not sent."
          : endpoint.enabled
            ? `Enabled: events go to ${endpoint.url}.`
            : `Disabled: the receiver answered 410 Gone. Save the URL again to enable it.`}
      </p>
      <Field label="URL" hint="http or https. Saving makes a new secret." error={refusalFor(set.error, "url", FIELDS)}>
        {(control) => <input {...control} type="url" required autoComplete="off" value={url} onChange={(e) => setUrl(e.target.value)} />}
      </Field>
      <Alert message={other} />
      <div className="actions">
        <button type="submit" disabled={set.isPending}>
          {endpoint ? "Save and enable" : "Set endpoint"}
        </button>
        {endpoint && (
          <>
            <Confirm
              action="Rotate secret"
              subject="of the webhook endpoint"
              question="Make a new secret? Deliveries carry a signature by the old one too for 24 hours."
              pending={rotate.isPending}
              onConfirm={() => rotate.mutate(undefined, { onSuccess: (rotated) => onSecret(rotated.secret) })}
            />
            <Confirm
              action="Remove"
              subject="the webhook endpoint"
              question="Remove the endpoint? Events from now on are not sent."
              pending={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </>
        )}
      </div>
    </form>
  );
}

/** The events in words, for the log's rows. */
const EVENT_WORDS: Record<Delivery["type"], string> = {
  "dossier.created": "Dossier created",
  "dossier.updated": "Dossier changed",
  "dossier.stage_changed": "Dossier moved to another stage",
  "dossier.deleted": "Dossier deleted",
  "note.created": "Note added",
};

const STATUS_WORDS: Record<DeliveryStatus, string> = { pending: "Waiting", succeeded: "Delivered", failed: "Failed", skipped: "Not sent" };

function DeliveryLog({ endpoint }: { endpoint: Endpoint | null }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const log = useDeliveries(page, status || undefined);
  const total = log.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / DELIVERY_PAGE));
  return (
    <section aria-labelledby="log-heading">
      <h2 id="log-heading">Delivery log</h2>
      <div className="settings-fields narrow">
        <Field label="Show">
          {(control) => (
            <select
              {...control}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as DeliveryStatus | "");
                setPage(1);
              }}
            >
              <option value="">Every delivery</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_WORDS[s]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {log.isPending && <p role="status">Loading the log…</p>}
      {log.isError && <p role="alert">{messageOf(log.error)}</p>}
      {log.data && log.data.data.length === 0 && <p>{status ? `No delivery is “${STATUS_WORDS[status]}”.` : "No deliveries yet."}</p>}
      {log.data && log.data.data.length > 0 && (
        <TableScroll label="Delivery log table">
          <table className="settings-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last result</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((delivery) => (
                <DeliveryRow key={delivery.event_id} delivery={delivery} endpoint={endpoint} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {pages > 1 && (
        <nav aria-label="Delivery log pages" className="pages">
          <button type="button" className="quiet" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="quiet" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      )}
    </section>
  );
}

const result = (statusCode: number | null, error: string | null) => (statusCode !== null ? `HTTP ${statusCode}` : (error ?? "—"));

function DeliveryRow({ delivery, endpoint }: { delivery: Delivery; endpoint: Endpoint | null }) {
  const [open, setOpen] = useState(false);
  const retry = useRetryDelivery();
  const attemptsId = `attempts-${delivery.event_id}`;
  return (
    <Fragment>
      <tr>
        <th scope="row">
          {EVENT_WORDS[delivery.type] ?? delivery.type}
          <span className="event-id muted">{delivery.event_id}</span>
        </th>
        <td>
          <code>{delivery.type}</code>
        </td>
        <td>
          <span className={`badge delivery-${delivery.status}`}>{STATUS_WORDS[delivery.status] ?? delivery.status}</span>
        </td>
        <td>{delivery.attempts}</td>
        <td>{delivery.attempts === 0 ? "—" : (delivery.last_error ?? result(delivery.last_status_code, null))}</td>
        <td>{when(delivery.next_attempt_at, "—")}</td>
        <td>
          <div className="actions">
            <button
              type="button"
              className="quiet"
              aria-expanded={open}
              aria-controls={attemptsId}
              aria-label={`Attempts of ${delivery.type} ${delivery.event_id}`}
              disabled={delivery.attempts === 0}
              onClick={() => setOpen(!open)}
            >
              Attempts
            </button>
            {delivery.status === "failed" && (
              <button
                type="button"
                disabled={retry.isPending || !endpoint?.enabled}
                aria-label={`Retry ${delivery.type} ${delivery.event_id}`}
                aria-describedby={endpoint?.enabled ? undefined : `${attemptsId}-off`}
                onClick={() => retry.mutate(delivery.event_id)}
              >
                Retry
              </button>
            )}
          </div>
          {delivery.status === "failed" && !endpoint?.enabled && (
            <p className="hint" id={`${attemptsId}-off`}>
              {endpoint ? "The endpoint is disabled: save its URL again to retry." : "No endpoint is set: set one to retry."}
            </p>
          )}
          <Alert error={retry.error} />
        </td>
      </tr>
      {open && (
        <tr id={attemptsId} className="attempts">
          <td colSpan={7}>
            <Attempts eventId={delivery.event_id} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function Attempts({ eventId }: { eventId: string }) {
  const detail = useDelivery(eventId);
  if (detail.isPending) return <p role="status">Loading the attempts…</p>;
  if (detail.isError) return <p role="alert">{messageOf(detail.error)}</p>;
  return (
    <table className="settings-table nested">
      <caption>Attempts, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Sent</th>
          <th scope="col">Result</th>
          <th scope="col">Took</th>
          <th scope="col">Answer began</th>
        </tr>
      </thead>
      <tbody>
        {detail.data.attempt_log.map((attempt, i) => (
          <tr key={`${attempt.at}-${i}`}>
            <td>{when(attempt.at)}</td>
            <td>{result(attempt.status_code, attempt.error)}</td>
            <td>{attempt.duration_ms} ms</td>
            <td>{attempt.response_snippet ? <code>{attempt.response_snippet.slice(0, 200)}</code> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
