// The contacts linked to the dossier: linking an existing one found by search, making one the
// primary contact, unlinking (C6).
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { messageOf } from "../api/client";
import { Alert } from "../ui/alert";
import { Field } from "../ui/field";
import { useContactSearch, useLinkedContacts, useLinks } from "./queries";
import type { LinkedContact, LinkRole } from "./types";
import { LINK_ROLES } from "./words";

const ROLES = Object.entries(LINK_ROLES) as [LinkRole, string][];

export function ContactsSection({ id, canWrite }: { id: string; canWrite: boolean }) {
  const linked = useLinkedContacts(id);
  const { link, unlink } = useLinks(id);
  const busy = link.isPending || unlink.isPending;
  const linkedIds = new Set(linked.data?.map((contact) => contact.contact_id));
  // A refusal shows by the row it is about, or by the search for a contact not linked yet.
  const rowError = (contactId: string) =>
    link.isError && link.variables.contact_id === contactId ? messageOf(link.error) : unlink.isError && unlink.variables === contactId ? messageOf(unlink.error) : null;
  const searchError = link.isError && !linkedIds.has(link.variables.contact_id) ? messageOf(link.error) : null;
  return (
    <section className="links" aria-labelledby="contacts-heading">
      <h2 id="contacts-heading">Linked contacts</h2>
      {linked.isPending && <p role="status">Loading the contacts…</p>}
      <Alert error={linked.error} />
      {linked.data?.length === 0 && <p>No contact is linked.</p>}
      {linked.data && linked.data.length > 0 && (
        <ul className="link-list">
          {linked.data.map((contact) => (
            <LinkedRow
              key={contact.contact_id}
              contact={contact}
              canWrite={canWrite}
              busy={busy}
              error={rowError(contact.contact_id)}
              onPrimary={() => {
                unlink.reset();
                link.mutate({ contact_id: contact.contact_id, role_on_dossier: contact.role_on_dossier, is_primary: true });
              }}
              onUnlink={() => {
                link.reset();
                unlink.mutate(contact.contact_id);
              }}
            />
          ))}
        </ul>
      )}
      {canWrite && (
        <LinkContact
          linkedIds={linkedIds}
          busy={busy}
          error={searchError}
          onLink={(contactId, role) => {
            unlink.reset();
            link.mutate({ contact_id: contactId, role_on_dossier: role });
          }}
        />
      )}
    </section>
  );
}

interface RowProps {
  contact: LinkedContact;
  canWrite: boolean;
  busy: boolean;
  error: string | null;
  onPrimary: () => void;
  onUnlink: () => void;
}

function LinkedRow({ contact, canWrite, busy, error, onPrimary, onUnlink }: RowProps) {
  // The "Primary" badge says which contact is primary: a role of "primary" says nothing more, and
  // a contact that is no longer primary may keep it from the API (issue 39; see docs/console.md).
  const role = contact.role_on_dossier === "primary" ? null : `Role: ${LINK_ROLES[contact.role_on_dossier] ?? contact.role_on_dossier}`;
  const details = [contact.email, contact.company, role].filter(Boolean).join(" · ");
  return (
    <li>
      <p className="contact-name">
        <Link href={`/contacts/${contact.contact_id}`}>{contact.full_name}</Link>
        {contact.is_primary && <span className="badge primary">Primary</span>}
      </p>
      <p className="hint">{details}</p>
      {canWrite && (
        <p className="row-actions">
          {!contact.is_primary && (
            <button type="button" className="secondary" onClick={onPrimary} disabled={busy} aria-label={`Make ${contact.full_name} the primary contact`}>
              Make primary
            </button>
          )}
          <button type="button" className="secondary" onClick={onUnlink} disabled={busy} aria-label={`Unlink ${contact.full_name}`}>
            Unlink
          </button>
        </p>
      )}
      <Alert message={error} />
    </li>
  );
}

interface LinkProps {
  linkedIds: Set<string>;
  busy: boolean;
  error: string | null;
  onLink: (contactId: string, role: LinkRole) => void;
}

function LinkContact({ linkedIds, busy, error, onLink }: LinkProps) {
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [role, setRole] = useState<LinkRole>("other");
  const found = useContactSearch(search);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed);
  };
  const results = found.data?.filter((contact) => !linkedIds.has(contact.id));
  return (
    <div className="link-contact">
      <h3>Link a contact</h3>
      <form role="search" onSubmit={submit} aria-label="Contact search">
        <Field label="Find a contact" hint="Part of a name, an email, a company or a role." error={found.isError ? messageOf(found.error) : error}>
          {(control) => <input {...control} type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      <Field label="Role on this dossier">
        {(control) => (
          <select {...control} value={role} onChange={(event) => setRole(event.target.value as LinkRole)}>
            {ROLES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {found.isFetching && <p role="status">Searching…</p>}
      {results && search && (
        <>
          {results.length === 0 && <p>No contact to link matches “{search}”.</p>}
          <ul className="found" aria-label="Contacts found">
            {results.map((contact) => (
              <li key={contact.id}>
                <span>
                  {contact.full_name}
                  {contact.email && <span className="hint"> · {contact.email}</span>}
                </span>
                <button type="button" className="secondary" onClick={() => onLink(contact.id, role)} disabled={busy} aria-label={`Link ${contact.full_name}`}>
                  Link
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
