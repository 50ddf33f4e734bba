// Settings → API keys (C13): the organization's keys (prefix, scopes, expiry, last use), a new key
// with the scopes ticked (shown once: only its hash is kept), and revoking one, in two steps.
import { useState, type FormEvent } from "react";
import { messageOf } from "../api/client";
import { Alert } from "../ui/alert";
import { Field } from "../ui/field";
import { Confirm, otherRefusal, refusalFor, ShownOnce, when } from "./parts";
import { useCreateKey, useKeys, useRevokeKey } from "./queries";
import { SCOPE_WORDS } from "../ui/words";
import { SCOPES, type ApiKey, type NewKey, type Scope } from "./types";
import { TableScroll } from "../ui/table-scroll";

const FIELDS = ["name", "scopes", "expires_at"] as const;

/** The end of a day picked in a date field, in UTC: the key works through that day. */
const endOfDay = (date: string) => `${date}T23:59:59.999Z`;

export function KeysSettings() {
  const keys = useKeys();
  const [made, setMade] = useState<NewKey | null>(null);
  return (
    <>
      <h1>API keys</h1>
      <p className="hint">Programs use a key to call the API with the scopes it grants.</p>
      <NewKeyForm onMade={setMade} />
      {made && (
        <ShownOnce label={`New key${made.name ? ` ${made.name}` : ""}`} value={made.key} onDone={() => setMade(null)}>
          Copy the key now: Dossier keeps only a hash of it and cannot show it again.
        </ShownOnce>
      )}
      <h2>Keys</h2>
      {keys.isPending && <p role="status">Loading the keys…</p>}
      {keys.isError && <p role="alert">{messageOf(keys.error)}</p>}
      {keys.data && (
        <TableScroll label="API keys table">
          <table className="settings-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Scopes</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <KeyRow key={key.id} apiKey={key} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

function NewKeyForm({ onMade }: { onMade: (key: NewKey) => void }) {
  const create = useCreateKey();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Set<Scope>>(new Set(["dossiers:read"]));
  const [expires, setExpires] = useState("");
  const toggle = (scope: Scope, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { scopes: SCOPES.filter((scope) => scopes.has(scope)), ...(name.trim() ? { name } : {}), ...(expires ? { expires_at: endOfDay(expires) } : {}) };
    create.mutate(body, {
      onSuccess: (key) => {
        onMade(key);
        setName("");
        setExpires("");
      },
    });
  };
  const error = (field: string) => refusalFor(create.error, field, FIELDS);
  const scopesError = error("scopes");
  const other = otherRefusal(create.error, FIELDS);
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Create a key</h2>
      <div className="settings-fields">
        <Field label="Name" hint="What uses it, e.g. Website form (optional)." error={error("name")}>
          {(control) => <input {...control} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Expires" hint="It stops working after this day (UTC). Empty: never." error={error("expires_at")}>
          {(control) => <input {...control} type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />}
        </Field>
      </div>
      <fieldset className="scopes" aria-describedby={scopesError ? "new-key-scopes-error" : undefined}>
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" checked={scopes.has(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
            <span>
              {capitalFirst(SCOPE_WORDS[scope] ?? scope)} <code className="muted">{scope}</code>
            </span>
          </label>
        ))}
      </fieldset>
      {scopesError && (
        <p id="new-key-scopes-error" className="error" role="alert">
          {scopesError}
        </p>
      )}
      <Alert message={other} />
      <button type="submit" disabled={create.isPending}>
        Create key
      </button>
    </form>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const revoke = useRevokeKey();
  const label = apiKey.name ?? apiKey.prefix;
  return (
    <tr className={apiKey.revoked_at ? "disabled" : undefined}>
      <th scope="row">{apiKey.name ?? <span className="hint">no name</span>}</th>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td>
        {capitalFirst(apiKey.scopes.map((scope) => SCOPE_WORDS[scope] ?? scope).join(", "))}
        <code className="scope-names muted">{apiKey.scopes.join(", ")}</code>
      </td>
      <td>{when(apiKey.expires_at)}</td>
      <td>{when(apiKey.last_used_at)}</td>
      <td>
        {apiKey.revoked_at ? (
          <span className="badge off">Revoked {when(apiKey.revoked_at)}</span>
        ) : (
          <Confirm
            action="Revoke"
            subject={`key ${label}`}
            question="Revoke this key? Programs using it are refused from the next request."
            pending={revoke.isPending}
            onConfirm={() => revoke.mutate(apiKey.id)}
          />
        )}
        <Alert error={revoke.error} />
      </td>
    </tr>
  );
}

const capitalFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
