// Screen 6 (C14): one contact: its fields, the dossiers it is linked to, editing it and deleting it.
// An edit is saved only if nobody changed the contact since it was read (If-Match, C16); when
// someone did, the page says so, keeps what was typed and shows the contact as it is now.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { ApiFailure, messageOf } from "../api/client";
import { useMember } from "../api/session";
import { capitalized, day } from "../list/format";
import { Alert } from "../ui/alert";
import { patchBody, typedOf, type Typed } from "./body";
import { ContactForm } from "./form";
import { useLinkedDossiers, useContact, useDeleteContact, useUpdateContact } from "./queries";
import { canWriteContacts } from "./roles";
import type { Contact } from "./types";
import { capitalizedKind } from "./words";

export function ContactPage({ id }: { id: string }) {
  const member = useMember();
  const found = useContact(id);
  const [editing, setEditing] = useState<Typed | null>(null);
  const [deleting, setDeleting] = useState(false);
  // Closing the form or the confirmation gives the focus back to the button that opened it.
  const [refocus, setRefocus] = useState<"edit" | "delete" | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!refocus) return;
    (refocus === "edit" ? editButton : deleteButton).current?.focus();
    setRefocus(null);
  }, [refocus]);
  if (found.isPending) return <p role="status">Loading the contact…</p>;
  if (found.isError) {
    const gone = found.error instanceof ApiFailure && found.error.status === 404;
    return (
      <>
        <h1>{gone ? "No such contact" : "Contact"}</h1>
        <p role="alert" className={gone ? undefined : "error"}>
          {gone ? "This contact does not exist, or was deleted." : messageOf(found.error)}
        </p>
        <p>
          <Link href="/contacts">All contacts</Link>
        </p>
      </>
    );
  }
  const { contact, etag } = found.data;
  const mayWrite = canWriteContacts(member);
  return (
    <>
      <p className="crumbs">
        <Link href="/contacts">All contacts</Link>
      </p>
      <div className="list-head">
        <h1>{contact.full_name}</h1>
        {mayWrite && !editing && !deleting && (
          <div className="actions">
            <button type="button" ref={editButton} onClick={() => setEditing(typedOf(contact))}>
              Edit
            </button>
            <button type="button" ref={deleteButton} className="danger" onClick={() => setDeleting(true)}>
              Delete
            </button>
          </div>
        )}
      </div>
      {deleting && (
        <ConfirmDelete
          contact={contact}
          onCancel={() => {
            setDeleting(false);
            setRefocus("delete");
          }}
        />
      )}
      {editing ? (
        <EditContact
          key={contact.id}
          contact={contact}
          etag={etag}
          base={editing}
          onDone={() => {
            setEditing(null);
            setRefocus("edit");
          }}
        />
      ) : (
        <Details contact={contact} />
      )}
      <LinkedDossiers contact={contact} />
    </>
  );
}

function Details({ contact }: { contact: Contact }) {
  const rows: [string, ReactNode][] = [
    ["Email", contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : null],
    ["Phone", contact.phone],
    ["Company", contact.company],
    ["Role", contact.role],
    ["City", contact.city],
    ["LinkedIn profile", contact.linkedin_url ? <a href={contact.linkedin_url}>{contact.linkedin_url}</a> : null],
    ["Kind", contact.kind.map(capitalizedKind).join(", ") || null],
    ["In the talent pool", contact.pool_added_at || contact.pool_expires_at ? poolWindow(contact) : null],
    ["Notes", contact.notes],
    ["Created", day(contact.created_at)],
    ["Updated", day(contact.updated_at)],
  ];
  return (
    <dl className="details">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? <span className="muted">Not given</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

const poolWindow = (contact: Contact) =>
  `${contact.pool_added_at ? `from ${day(contact.pool_added_at)}` : "from the start"} ${contact.pool_expires_at ? `until ${day(contact.pool_expires_at)}` : "with no end"}`;

interface EditProps {
  contact: Contact;
  etag: string | null;
  /** The contact as it was when the edit began: only what differs from it is sent. */
  base: Typed;
  onDone: () => void;
}

function EditContact({ contact, etag, base, onDone }: EditProps) {
  const update = useUpdateContact(contact.id);
  const changedFirst = update.error instanceof ApiFailure && update.error.status === 412;
  const notice = changedFirst ? (
    <div className="error" role="alert">
      <p>Someone else changed this contact after you opened it, so your changes were not saved. What you typed is kept below.</p>
      <p>Save again to replace their version with yours, or cancel to keep theirs.</p>
    </div>
  ) : undefined;
  return (
    <section className="panel" aria-labelledby="edit-heading">
      <h2 id="edit-heading">Edit contact</h2>
      <ContactForm
        initial={base}
        submitLabel="Save changes"
        pending={update.isPending}
        error={update.error}
        notice={notice}
        onSubmit={(typed) => update.mutate({ body: patchBody(base, typed), etag }, { onSuccess: onDone })}
        onCancel={onDone}
      />
      {changedFirst && (
        <details className="theirs">
          <summary>The contact as it is now</summary>
          <Details contact={contact} />
        </details>
      )}
    </section>
  );
}

function ConfirmDelete({ contact, onCancel }: { contact: Contact; onCancel: () => void }) {
  const remove = useDeleteContact(contact.id);
  const [, navigate] = useLocation();
  const links = contact.dossier_count;
  return (
    <section className="panel confirm" aria-labelledby="delete-heading" aria-describedby="delete-words">
      <h2 id="delete-heading">Delete {contact.full_name}?</h2>
      <p id="delete-words">
        The contact is deleted for good.{" "}
        {links > 0 ? `Its ${links === 1 ? "link" : `${links} links`} to dossiers ${links === 1 ? "is" : "are"} removed; the dossiers stay.` : "It is linked to no dossier."}
      </p>
      <Alert error={remove.error} />
      <div className="actions">
        <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(undefined, { onSuccess: () => navigate("/contacts") })}>
          Yes, delete {contact.full_name}
        </button>
        <button type="button" className="secondary" autoFocus onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

function LinkedDossiers({ contact }: { contact: Contact }) {
  const linked = useLinkedDossiers(contact.id);
  const count = contact.dossier_count;
  return (
    <section aria-labelledby="linked-heading" className="linked">
      <h2 id="linked-heading">Linked dossiers</h2>
      <p>{count === 0 ? "Linked to no dossier." : `Linked to ${count} ${count === 1 ? "dossier" : "dossiers"}, archived ones included.`}</p>
      {count > 0 && linked.isPending && <p role="status">Loading the dossiers…</p>}
      <Alert error={linked.error} />
      {count > 0 && linked.data && (
        <>
          <ul>
            {linked.data.dossiers.map((dossier) => (
              <li key={dossier.id}>
                <Link href={`/dossiers/${dossier.id}`}>{dossier.name}</Link>{" "}
                <span className="muted">
                  ({capitalized(dossier.type)}, {dossier.status}
                  {dossier.contact_id === contact.id ? ", primary contact" : ""})
                </span>
              </li>
            ))}
          </ul>
          {linked.data.total > linked.data.dossiers.length && (
            <p className="hint">
              The first {linked.data.dossiers.length} of {linked.data.total}: the list of dossiers finds the others.
            </p>
          )}
        </>
      )}
    </section>
  );
}
