// Screen 6 (C14): the contacts: search, a table with its pages, and creating one. The search and
// the page live in the address's query string, as the dossiers list's filters do.
import { useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { contactsExport } from "../api/exports";
import { useMember } from "../api/session";
import { Pager } from "../list/pager";
import { pageCount, whole } from "../list/paging";
import { SearchText } from "../list/search";
import { Alert } from "../ui/alert";
import { createBody, EMPTY } from "./body";
import { ContactForm } from "./form";
import { canWriteContacts } from "./roles";
import { useContactPage, useCreateContact } from "./queries";
import { KINDS, POOLS, type ContactKind, type ContactQuery } from "./types";
import { capitalizedKind, POOL_WORDS } from "./words";
import { TableScroll } from "../ui/table-scroll";

const PER_PAGE = 25;

function queryOf(params: URLSearchParams): ContactQuery & { page: number; per_page: number } {
  const kind = params.getAll("kind").filter((k): k is ContactKind => KINDS.includes(k as ContactKind));
  const pool = POOLS.find((p) => p === params.get("pool"));
  const search = params.get("search")?.trim();
  return { kind: kind.length > 0 ? kind : undefined, pool, search: search || undefined, page: whole(params.get("page"), 1), per_page: PER_PAGE };
}

export function Contacts() {
  const member = useMember();
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const list = useContactPage(query);
  const [creating, setCreating] = useState(false);
  const total = list.data?.meta.total ?? 0;
  const searching = Boolean(query.search || query.kind || query.pool);
  const change = (name: "search" | "kind" | "pool", value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete("page");
    setParams(next);
  };

  return (
    <>
      <div className="list-head">
        <h1>Contacts</h1>
        <a href={contactsExport(query)} download className="button-link secondary">
          Export CSV
        </a>
        {canWriteContacts(member) && (
          <button type="button" aria-expanded={creating} aria-controls="new-contact" onClick={() => setCreating(!creating)}>
            New contact
          </button>
        )}
      </div>
      {creating && <NewContact onCancel={() => setCreating(false)} />}
      <section className="filters" aria-label="Search contacts">
        <SearchText id="contacts-search" label="Name, email, company or role" value={params.get("search") ?? ""} onSearch={(text) => change("search", text)} key={params.get("search") ?? ""} />
        <div className="filter">
          <label htmlFor="contacts-kind">Kind</label>
          <select id="contacts-kind" value={params.get("kind") ?? ""} onChange={(event) => change("kind", event.target.value)}>
            <option value="">Any kind</option>
            {KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {capitalizedKind(kind)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="contacts-pool">Talent pool</label>
          <select id="contacts-pool" value={params.get("pool") ?? ""} onChange={(event) => change("pool", event.target.value)}>
            <option value="">In it or not</option>
            {POOLS.map((pool) => (
              <option key={pool} value={pool}>
                {POOL_WORDS[pool]}
              </option>
            ))}
          </select>
        </div>
        {searching && (
          <p className="clear">
            <Link href="/contacts">Clear the search</Link>
          </p>
        )}
      </section>
      <Alert error={list.error} />
      <p role="status" className="total">
        {list.isError && !list.data ? "" : list.isPending ? "Loading the contacts…" : `${total} ${total === 1 ? "contact" : "contacts"}${searching ? " found" : ""}`}
      </p>
      {list.data && (
        <>
          <TableScroll label="Contacts table">
            <table className="list" aria-busy={list.isFetching}>
              <caption>
                Contacts{searching ? " found" : ""}, page {query.page} of {pageCount(total, PER_PAGE)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Company</th>
                  <th scope="col">Role</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Dossiers</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((contact) => (
                  <tr key={contact.id}>
                    <th scope="row">
                      <Link href={`/contacts/${contact.id}`}>{contact.full_name}</Link>
                    </th>
                    <td>{contact.email ?? ""}</td>
                    <td>{contact.company ?? ""}</td>
                    <td>{contact.role ?? ""}</td>
                    <td>{contact.kind.map(capitalizedKind).join(", ")}</td>
                    <td className="number">{contact.dossier_count}</td>
                  </tr>
                ))}
                {list.data.data.length === 0 && (
                  <tr>
                    <td colSpan={6}>{searching ? "No contact matches this search." : "No contacts yet."}</td>
                  </tr>
                )}
              </tbody>
            </table>
          </TableScroll>
          <Pager path="/contacts" params={params} page={query.page} perPage={PER_PAGE} total={total} of="contacts" />
        </>
      )}
    </>
  );
}

/** The create form; a created contact opens its page. */
function NewContact({ onCancel }: { onCancel: () => void }) {
  const create = useCreateContact();
  const [, navigate] = useLocation();
  return (
    <section id="new-contact" className="panel" aria-labelledby="new-contact-heading">
      <h2 id="new-contact-heading">New contact</h2>
      <ContactForm
        initial={EMPTY}
        submitLabel="Create contact"
        pending={create.isPending}
        error={create.error}
        onSubmit={(typed) => create.mutate(createBody(typed), { onSuccess: (contact) => navigate(`/contacts/${contact.id}`) })}
        onCancel={onCancel}
      />
    </section>
  );
}
