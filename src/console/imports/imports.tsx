// The import page (C21): a CSV file, its columns mapped to fields (guessed from the header names,
// changed at will), a dry run that shows the first refused rows, the run with its progress, and the
// log of imports with their revert.
import { useState } from "react";
import { useMember } from "../api/session";
import { canWriteContacts } from "../contacts/roles";
import { Alert } from "../ui/alert";
import { TableScroll } from "../ui/table-scroll";
import { FIELDS, guess, headerOf, type Resource } from "./header";
import { useImport, useImportLog, useRevertImport, useStartImport, type Import } from "./queries";

const RESOURCES: [Resource, string][] = [
  ["contacts", "Contacts"],
  ["dossiers", "Dossiers"],
];
const MODES = [
  ["create", "Create a record for each row"],
  ["update", "Update the records they match"],
  ["upsert", "Update the match, else create"],
] as const;

export function Imports() {
  const member = useMember();
  const writes = canWriteContacts(member);
  return (
    <>
      <h1>Import</h1>
      <p>Bring contacts or dossiers in from a CSV file (at most 50 MB and 200,000 rows). Try a dry run first: it checks every row and writes nothing.</p>
      {writes ? <NewImport /> : <p>Your role can read the imports but not start one.</p>}
      <ImportLog writes={writes} />
    </>
  );
}

function NewImport() {
  const [resource, setResource] = useState<Resource>("contacts");
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<(typeof MODES)[number][0]>("create");
  const [type, setType] = useState<"candidate" | "sales">("candidate");
  const [current, setCurrent] = useState<string | null>(null);
  const start = useStartImport();
  const shown = useImport(current);

  const choose = async (chosen: File | null, as: Resource) => {
    setFile(chosen);
    setCurrent(null);
    const found = chosen ? await headerOf(chosen) : [];
    setHeaders(found);
    setMapping(guess(as, found));
  };
  const onResource = (value: Resource) => {
    setResource(value);
    setMapping(guess(value, headers));
  };
  const run = (dryRun: boolean) => {
    if (!file) return;
    start.mutate(
      {
        file,
        resource,
        mapping: JSON.stringify(mapping),
        mode,
        ...(dryRun ? { dry_run: "true" as const } : {}),
        ...(resource === "dossiers" && !Object.values(mapping).includes("type") ? { type } : {}),
      },
      { onSuccess: (made) => setCurrent(made.id) },
    );
  };

  return (
    <section aria-labelledby="new-import" className="import-form">
      <h2 id="new-import">New import</h2>
      <div className="filters">
        <div className="filter">
          <label htmlFor="import-resource">What the file holds</label>
          <select id="import-resource" value={resource} onChange={(event) => onResource(event.target.value as Resource)}>
            {RESOURCES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="import-file">CSV file</label>
          <input id="import-file" type="file" accept=".csv,.tsv,.txt,text/csv" onChange={(event) => void choose(event.target.files?.[0] ?? null, resource)} />
        </div>
        <div className="filter">
          <label htmlFor="import-mode">Rows</label>
          <select id="import-mode" value={mode} onChange={(event) => setMode(event.target.value as (typeof MODES)[number][0])}>
            {MODES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {resource === "dossiers" && (
          <div className="filter">
            <label htmlFor="import-type">Type of the dossiers</label>
            <select id="import-type" value={type} onChange={(event) => setType(event.target.value as "candidate" | "sales")}>
              <option value="candidate">Candidate</option>
              <option value="sales">Sales</option>
            </select>
          </div>
        )}
      </div>
      {headers.length > 0 && (
        <TableScroll label="Columns of the file">
          <table className="list">
            <caption>The file's columns and the field each goes to</caption>
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">Field</th>
              </tr>
            </thead>
            <tbody>
              {headers.map((header, i) => (
                <tr key={`${i}-${header}`}>
                  <th scope="row">{header}</th>
                  <td>
                    <select
                      aria-label={`Field for the column ${header}`}
                      value={mapping[header] ?? ""}
                      onChange={(event) => {
                        const next = { ...mapping };
                        if (event.target.value) next[header] = event.target.value;
                        else delete next[header];
                        setMapping(next);
                      }}
                    >
                      <option value="">Not imported</option>
                      {FIELDS[resource].map((field) => (
                        <option key={field} value={field}>
                          {field}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <div className="actions">
        <button type="button" className="secondary" disabled={!file || start.isPending} onClick={() => run(true)}>
          Dry run
        </button>
        <button type="button" disabled={!file || start.isPending} onClick={() => run(false)}>
          Import
        </button>
      </div>
      <Alert error={start.error} />
      {shown.data && <Progress item={shown.data} />}
    </section>
  );
}

/** An import as it goes: its progress bar, its counts and its first refused rows. */
function Progress({ item }: { item: Import }) {
  const done = item.status !== "queued" && item.status !== "running";
  return (
    <section aria-labelledby="import-progress">
      <h3 id="import-progress">{item.dry_run ? "Dry run" : "Import"} of {item.file_name ?? "the file"}</h3>
      <progress max={Math.max(1, item.rows)} value={item.processed} aria-label="Rows done">
        {item.processed} of {item.rows}
      </progress>
      <p role="status">
        {done ? (item.dry_run ? "Dry run finished: " : `Import ${item.status}: `) : "Working: "}
        {item.processed} of {item.rows} rows, {item.created} {item.dry_run ? "would be created" : "created"}, {item.updated} updated, {item.skipped} unchanged,{" "}
        {item.failed} refused
      </p>
      {item.errors.length > 0 && (
        <TableScroll label="Refused rows">
          <table className="list">
            <caption>Refused rows{item.errors.length < item.failed ? ` (the first ${item.errors.length})` : ""}</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {item.errors.slice(0, 100).map((error, i) => (
                <tr key={`${error.row}-${i}`}>
                  <th scope="row">{error.row}</th>
                  <td>{error.column ?? ""}</td>
                  <td>{error.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

function ImportLog({ writes }: { writes: boolean }) {
  const log = useImportLog();
  const revert = useRevertImport();
  return (
    <section aria-labelledby="import-log">
      <h2 id="import-log">Imports</h2>
      <Alert error={log.error ?? revert.error} />
      {log.data && (
        <TableScroll label="Imports table">
          <table className="list">
            <caption>The latest imports, newest first</caption>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Of</th>
                <th scope="col">Status</th>
                <th scope="col">Rows</th>
                <th scope="col">Created</th>
                <th scope="col">Updated</th>
                <th scope="col">Refused</th>
                <th scope="col">When</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((item) => (
                <tr key={item.id}>
                  <th scope="row">{item.file_name ?? "(no name)"}</th>
                  <td>{item.resource}</td>
                  <td>{item.dry_run ? `dry run, ${item.status}` : item.status}</td>
                  <td className="number">{item.rows}</td>
                  <td className="number">{item.created}</td>
                  <td className="number">{item.updated}</td>
                  <td className="number">{item.failed}</td>
                  <td>
                    <time dateTime={item.created_at}>{new Date(item.created_at).toLocaleString()}</time>
                  </td>
                  <td>
                    {writes && item.status === "succeeded" && !item.dry_run && (
                      <button type="button" className="secondary" disabled={revert.isPending} onClick={() => revert.mutate(item.id)}>
                        Revert<span className="sr-only"> the import of {item.file_name ?? "this file"}</span>
                      </button>
                    )}
                    {item.revert && `${item.revert.undone} undone, ${item.revert.skipped} left as changed since`}
                  </td>
                </tr>
              ))}
              {log.data.data.length === 0 && (
                <tr>
                  <td colSpan={9}>No import yet.</td>
                </tr>
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
