// Screen 3 (C14): the dossiers as a table, with GET /dossiers's filters, its total and its pages.
// The filters and the page live in the address's query string: the back button, a bookmark and a
// shared link show the same list.
import { Link, useSearchParams } from "wouter";
import type { Dossier, Flow } from "../api/client";
import { dossiersExport } from "../api/exports";
import { canWriteDossiers, useMember } from "../api/session";
import { useFlows, useMemberNames } from "../board/queries";
import { Alert } from "../ui/alert";
import { Avatar } from "../ui/avatar";
import { DEFAULT_PAGE_SIZE, filtered, PAGE_SIZES, queryOf, STATUSES, TYPES, withFilters } from "./filters";
import { capitalized, day, money } from "./format";
import { Pager } from "./pager";
import { pageCount } from "./paging";
import { SearchText } from "./search";
import { useDossierPage } from "./queries";
import { TableScroll } from "../ui/table-scroll";

export function DossierList() {
  const member = useMember();
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const list = useDossierPage(query);
  const flows = useFlows();
  const names = useMemberNames();
  const change = (changes: Parameters<typeof withFilters>[1]) => setParams(withFilters(params, changes));
  const total = list.data?.meta.total ?? 0;
  const pages = pageCount(total, query.per_page);

  return (
    <>
      <div className="list-head">
        <h1>Dossiers</h1>
        <a href={dossiersExport(query)} download className="button-link secondary">
          Export CSV
        </a>
        {canWriteDossiers(member) && (
          <Link href="/dossiers/new" className="button-link">
            New dossier
          </Link>
        )}
      </div>
      <Filters params={params} flows={flows.data ?? []} names={names.data} me={member.id} onChange={change} />
      <Alert error={list.error} />
      <p role="status" className="total">
        {list.isError && !list.data ? "" : list.isPending ? "Loading the dossiers…" : filtered(params) ? `${total} ${total === 1 ? "dossier matches" : "dossiers match"} these filters` : `${total} ${total === 1 ? "dossier" : "dossiers"}`}
      </p>
      {list.data && (
        <>
          <TableScroll label="Dossiers table">
            <table className="list" aria-busy={list.isFetching}>
              <caption>
                Dossiers{filtered(params) ? " that match the filters" : ""}, page {query.page} of {pages}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Stage</th>
                  <th scope="col">Status</th>
                  <th scope="col">Assigned to</th>
                  <th scope="col">Company</th>
                  <th scope="col">Deal</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((dossier) => (
                  <Row key={dossier.id} dossier={dossier} flows={flows.data ?? []} names={names.data} />
                ))}
                {list.data.data.length === 0 && (
                  <tr>
                    <td colSpan={8}>{query.page > pages ? "This page is past the last one." : "No dossier matches these filters."}</td>
                  </tr>
                )}
              </tbody>
            </table>
          </TableScroll>
          <Pager path="/dossiers" params={params} page={query.page} perPage={query.per_page} total={total} of="dossiers" />
        </>
      )}
    </>
  );
}

function Row({ dossier, flows, names }: { dossier: Dossier; flows: Flow[]; names: Map<string, string> | undefined }) {
  const flow = flows.find((f) => f.id === dossier.flow_id);
  const stage = flow?.stages.find((s) => s.id === dossier.current_stage_id);
  const assignee = dossier.assigned_to ? (names?.get(dossier.assigned_to) ?? "Someone else") : "";
  return (
    <tr>
      <th scope="row">
        <Link href={`/dossiers/${dossier.id}`}>{dossier.name}</Link>
      </th>
      <td>{capitalized(dossier.type)}</td>
      <td>{stage ? `${stage.name}${flows.length > 1 && flow ? ` (${flow.name})` : ""}` : ""}</td>
      <td>{capitalized(dossier.status)}</td>
      <td>
        {assignee && (
          <span className="person">
            <Avatar name={assignee} label="" /> {assignee}
          </span>
        )}
      </td>
      <td>{dossier.company ?? ""}</td>
      <td className="number">{dossier.deal_size !== null && dossier.deal_currency !== null ? money(dossier.deal_size, dossier.deal_currency) : ""}</td>
      <td>
        <time dateTime={dossier.updated_at}>{day(dossier.updated_at)}</time>
      </td>
    </tr>
  );
}

interface FiltersProps {
  params: URLSearchParams;
  flows: Flow[];
  names: Map<string, string> | undefined;
  me: string;
  onChange: (changes: Parameters<typeof withFilters>[1]) => void;
}

/** The filters: a choice applies at once; the search text when submitted. */
function Filters({ params, flows, names, me, onChange }: FiltersProps) {
  const type = params.get("type") ?? "";
  const flowId = params.get("flow_id") ?? "";
  const stageId = params.get("stage_id") ?? "";
  const shownFlows = flows.filter((flow) => !type || flow.type === type);
  const stageFlows = flowId ? shownFlows.filter((flow) => flow.id === flowId) : shownFlows;
  const others = [...(names ?? [])].filter(([id]) => id !== me).sort(([, a], [, b]) => a.localeCompare(b));
  // A flow has one type and a stage one flow: a choice that rules them out forgets them.
  const flowOf = (id: string) => flows.find((flow) => flow.id === id || flow.stages.some((stage) => stage.id === id));
  const onType = (value: string) => {
    const fits = (id: string) => (id && (!value || flowOf(id)?.type === value) ? id : "");
    onChange({ type: value, flow_id: fits(flowId), stage_id: fits(stageId) });
  };
  const onFlow = (value: string) => onChange({ flow_id: value, stage_id: !value || flowOf(stageId)?.id === value ? stageId : "" });
  return (
    <section className="filters" aria-label="Filters">
      <Choice name="type" label="Type" value={type} onChange={onType} options={[["", "Any type"], ...TYPES.map((t): Option => [t, capitalized(t)])]} />
      <Choice name="flow_id" label="Flow" value={flowId} onChange={onFlow} options={[["", "Any flow"], ...shownFlows.map((flow): Option => [flow.id, flow.name])]} />
      <div className="filter">
        <label htmlFor="filter-stage_id">Stage</label>
        <select id="filter-stage_id" value={stageId} onChange={(event) => onChange({ stage_id: event.target.value })}>
          <option value="">Any stage</option>
          {stageFlows.map((flow) => (
            <optgroup key={flow.id} label={flow.name}>
              {flow.stages.map((stage) => (
                <option key={stage.id} value={stage.id}>
                  {stage.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <Choice
        name="status"
        label="Status"
        value={params.get("status") ?? ""}
        onChange={(status) => onChange({ status })}
        options={[["", "Any but archived"], ...STATUSES.map((s): Option => [s, capitalized(s)])]}
      />
      <Choice name="assigned_to" label="Assigned to" value={params.get("assigned_to") ?? ""} onChange={(assigned_to) => onChange({ assigned_to })} options={[["", "Anyone"], [me, "Me"], ...others]} />
      <Choice
        name="overdue"
        label="Deadline"
        value={params.get("overdue") ?? ""}
        onChange={(overdue) => onChange({ overdue })}
        options={[
          ["", "Any"],
          ["true", "Overdue"],
          ["false", "Not overdue"],
        ]}
      />
      <div className="filter">
        <label htmlFor="filter-updated_since">Changed since</label>
        <input
          id="filter-updated_since"
          type="date"
          value={params.get("updated_since") ?? ""}
          onChange={(event) => onChange({ updated_since: event.target.value })}
          aria-describedby="filter-updated_since-hint"
        />
        <span id="filter-updated_since-hint" className="sr-only">
          From the start of that day, UTC
        </span>
      </div>
      <SearchText id="filter-q" label="Name, email or company" value={params.get("q") ?? ""} onSearch={(q) => onChange({ q })} key={params.get("q") ?? ""} />
      <Choice
        name="per_page"
        label="Rows per page"
        value={params.get("per_page") ?? ""}
        onChange={(per_page) => onChange({ per_page })}
        options={PAGE_SIZES.map((n): Option => [n === DEFAULT_PAGE_SIZE ? "" : String(n), String(n)])}
      />
      {filtered(params) && (
        <p className="clear">
          <Link href="/dossiers">Clear filters</Link>
        </p>
      )}
    </section>
  );
}

/** A select's value and the words shown for it. */
type Option = [value: string, text: string];

function Choice({ name, label, value, options, onChange }: { name: string; label: string; value: string; options: Option[]; onChange: (value: string) => void }) {
  return (
    <div className="filter">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
