// Screen 2 (C14): one flow's stages as columns of dossier cards, under the filters of the address.
// A card moves to another stage by dragging it onto a column, or by keyboard with its "Move to…"
// button; the move shows at once and is undone, with the API's message, if the API refuses it. A
// viewer gets neither, nor the "New dossier" link. Each column scrolls on its own under its
// header (issue 39); the arrow keys go from card to card, left and right to the next column.
import { DndContext, DragOverlay, PointerSensor, useDroppable, useSensor, useSensors, type Announcements, type DragEndEvent, type DragStartEvent } from "@dnd-kit/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type KeyboardEvent } from "react";
import { Link } from "wouter";
import { messageOf, type Dossier, type Flow, type Stage } from "../api/client";
import { canWriteDossiers, useMember } from "../api/session";
import { Alert } from "../ui/alert";
import { Card } from "./card";
import { FilterBar } from "./filter-bar";
import { apiFilter, isFiltered, useBoardFilter, type DossierFilter } from "./filters";
import { cachedTaskMarks, columnCards, useColumn, useColumnTaskMarks, useFlows, useMemberNames, useMatching, useMoveCard, usePipeline, useStageSums, type Move } from "./queries";
import { money } from "./sums";

export function Board({ flowId }: { flowId: string }) {
  const flows = useFlows();
  if (flows.isPending) return <p role="status">Loading the board…</p>;
  if (flows.isError) return <p role="alert">{messageOf(flows.error)}</p>;
  const flow = flows.data.find((f) => f.id === flowId);
  if (!flow) {
    return (
      <>
        <h1>No such flow</h1>
        <p>This board's flow does not exist, or is not your organization's.</p>
      </>
    );
  }
  return <FlowBoard flow={flow} key={flow.id} />;
}

/** What the page says after a move: done, or refused in the API's words. */
interface Outcome {
  ok: boolean;
  text: string;
}

function FlowBoard({ flow }: { flow: Flow }) {
  const member = useMember();
  const canMove = canWriteDossiers(member);
  const names = useMemberNames();
  const client = useQueryClient();
  const [filter, setFilter] = useBoardFilter();
  const query = apiFilter(filter, member.id);
  const move = useMoveCard(flow.id, query);
  const [dragged, setDragged] = useState<Dossier | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The card to give the focus to once it shows in that stage's column: the moved card in its new
  // column, or back in its old one when the move was undone.
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; stage: string } | null>(null);
  // A small distance before a drag starts, so that a click on the card's button stays a click.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const stageName = (id: string) => flow.stages.find((s) => s.id === id)?.name ?? "another stage";

  const moveCard = ({ dossier, to }: Move) => {
    if (dossier.current_stage_id === to) return;
    setOutcome(null);
    move.mutate(
      { dossier, to },
      {
        onSuccess: () => setOutcome({ ok: true, text: `${dossier.name} moved to ${stageName(to)}.` }),
        onError: (error) => {
          setOutcome({ ok: false, text: `${dossier.name} could not move to ${stageName(to)}: ${messageOf(error)}` });
          setFocusAfterMove({ id: dossier.id, stage: dossier.current_stage_id ?? "" });
        },
      },
    );
    setFocusAfterMove({ id: dossier.id, stage: to });
  };

  const nameOf = (data: { current?: Record<string, unknown> } | undefined) => (data?.current?.dossier as Dossier | undefined)?.name ?? "The card";
  // What a screen reader hears while a card is dragged: the card and the stages by name, never an id.
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.data)}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.data)} is over ${stageName(String(over.id))}.` : `${nameOf(active.data)} is over no stage.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.data)} was dropped on ${stageName(String(over.id))}.` : `${nameOf(active.data)} was dropped outside the stages.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.data)} was cancelled.`,
  };

  const onDragStart = (event: DragStartEvent) => setDragged((event.active.data.current?.dossier as Dossier | undefined) ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    setDragged(null);
    const dossier = event.active.data.current?.dossier as Dossier | undefined;
    if (dossier && event.over) moveCard({ dossier, to: String(event.over.id) });
  };

  return (
    <>
      <div className="board-head">
        <h1>{flow.name}</h1>
        {canMove && (
          <Link href={`/dossiers/new?flow=${flow.id}`} className="button-link board-new">
            New dossier
          </Link>
        )}
        <Matching flow={flow} filter={query} shown={isFiltered(filter)} />
        {flow.type === "sales" && <Pipeline flow={flow} />}
      </div>
      <FilterBar filter={filter} onChange={setFilter} member={member} names={names.data} />
      <p className="sr-only" id="board-help">
        {canMove
          ? "Tab goes from column to column; the arrow keys from card to card: up and down in a column, left and right to the next column. Drag a card to another column, or use its Move to… button."
          : "Tab goes from column to column; the arrow keys from card to card: up and down in a column, left and right to the next column. You can look at this board; your role cannot move cards."}
      </p>
      <div className={outcome && !outcome.ok ? "outcome error" : "outcome"} role={outcome && !outcome.ok ? "alert" : "status"}>
        {outcome?.text}
      </div>
      <EmptyBoard flow={flow} filter={query} filtered={isFiltered(filter)} canMove={canMove} />
      <DndContext
        sensors={sensors}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragged(null)}
        accessibility={{ announcements, screenReaderInstructions: { draggable: "Use the card's Move to… button to move it with the keyboard." } }}
      >
        <div className="board" aria-describedby="board-help" onKeyDown={moveFocus}>
          {flow.stages.map((stage) => (
            <Column
              key={stage.id}
              flow={flow}
              stage={stage}
              filter={query}
              canMove={canMove}
              names={names.data}
              onMove={moveCard}
              focusAfterMove={focusAfterMove}
              onFocused={() => setFocusAfterMove(null)}
            />
          ))}
        </div>
        <DragOverlay>{dragged ? <Card dossier={dragged} stages={flow.stages} names={names.data} tasks={cachedTaskMarks(client, dragged.id)} overlay /> : null}</DragOverlay>
      </DndContext>
    </>
  );
}

/** The arrow keys on a card (not in its open Move menu): up and down to the card above or below,
 * left and right to the card at the same place in the previous or next column that has cards. */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const keys: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  const step = keys[event.key];
  const target = event.target as HTMLElement;
  if (!step || event.altKey || event.ctrlKey || event.metaKey || target.closest(".stages")) return;
  const card = target.closest("article.card");
  if (!card) return;
  const columns = [...event.currentTarget.querySelectorAll("section.column")].map((column) => [...column.querySelectorAll("article.card")]);
  const x = columns.findIndex((cards) => cards.includes(card));
  const y = columns[x].indexOf(card);
  let next: Element | undefined;
  if (step[1] !== 0) next = columns[x][y + step[1]];
  else {
    for (let i = x + step[0]; i >= 0 && i < columns.length && !next; i += step[0]) {
      if (columns[i].length > 0) next = columns[i][Math.min(y, columns[i].length - 1)];
    }
  }
  if (!next) return;
  event.preventDefault();
  next.querySelector<HTMLElement>("h3 a")?.focus();
  next.scrollIntoView({ block: "nearest", inline: "nearest" });
}

/** An empty board says so, and how to fill it; a board whose filters match nothing says that. */
function EmptyBoard({ flow, filter, filtered, canMove }: { flow: Flow; filter: DossierFilter; filtered: boolean; canMove: boolean }) {
  const matching = useMatching(
    flow.id,
    flow.stages.map((stage) => stage.id),
    filter,
  );
  if (matching !== 0) return null;
  return (
    <section className="empty-state" aria-labelledby="empty-board">
      <h2 id="empty-board">{filtered ? "Nothing matches these filters" : "No dossiers on this board yet"}</h2>
      <p>
        {filtered
          ? "Change or clear the filters to see more of the board."
          : canMove
            ? "Add the first one with New dossier, or send one by email or through the API: it shows here in its first stage."
            : "Dossiers show here as soon as a member adds them."}
      </p>
    </section>
  );
}

/** A sales flow's open pipeline, per currency, and weighted by the stages' win probabilities. */
function Pipeline({ flow }: { flow: Flow }) {
  const pipeline = usePipeline(flow);
  if (!pipeline.data || pipeline.data.length === 0) return null;
  return (
    <p className="pipeline">
      Open pipeline: {pipeline.data.map((p) => money(p.open_value, p.currency)).join(" · ")}
      <span className="muted"> (weighted: {pipeline.data.map((p) => money(p.weighted_value, p.currency)).join(" · ")})</span>
    </p>
  );
}

/** How many dossiers match the filters, said when it changes; nothing without filters. */
function Matching({ flow, filter, shown }: { flow: Flow; filter: DossierFilter; shown: boolean }) {
  const matching = useMatching(
    flow.id,
    flow.stages.map((stage) => stage.id),
    filter,
  );
  return (
    <p className="board-matches" role="status">
      {shown && matching !== null ? `${matching} ${matching === 1 ? "dossier matches" : "dossiers match"} the filters.` : ""}
    </p>
  );
}

interface ColumnProps {
  flow: Flow;
  stage: Stage;
  filter: DossierFilter;
  canMove: boolean;
  names: Map<string, string> | undefined;
  onMove: (move: Move) => void;
  focusAfterMove: { id: string; stage: string } | null;
  onFocused: () => void;
}

function Column({ flow, stage, filter, canMove, names, onMove, focusAfterMove, onFocused }: ColumnProps) {
  const column = useColumn(flow.id, stage.id, filter);
  const { setNodeRef, isOver } = useDroppable({ id: stage.id, disabled: !canMove });
  const { cards, total } = columnCards(column.data);
  const headingId = `stage-${stage.id}`;
  const sums = useStageSums(flow, stage.id, filter, column.data);
  const taskMarks = useColumnTaskMarks(column.data);
  return (
    <section
      ref={setNodeRef}
      className={isOver ? "column over" : "column"}
      aria-labelledby={headingId}
      aria-busy={column.isPlaceholderData || undefined}
      data-stage={stage.name}
    >
      <header>
        <h2 id={headingId}>
          <span className="swatch" style={{ backgroundColor: stage.color }} aria-hidden="true" />
          {stage.name}
        </h2>
        <p className="count">{column.isPending ? "…" : `${total} ${total === 1 ? "dossier" : "dossiers"}`}</p>
        {sums.data && sums.data.length > 0 && <p className="sums">{sums.data.map(({ currency, sum }) => money(sum, currency)).join(" · ")}</p>}
        {sums.isPending && flow.type === "sales" && total > 0 && <p className="sums">Adding up…</p>}
      </header>
      <Alert error={column.error ?? sums.error} />
      {column.isSuccess && total === 0 && <p className="column-empty">No dossiers in this stage.</p>}
      <ul aria-labelledby={headingId}>
        {cards.map((dossier, i) => (
          <li key={dossier.id}>
            <Card
              tabStop={i === 0}
              dossier={dossier}
              stages={flow.stages}
              names={names}
              tasks={taskMarks(dossier.id)}
              canMove={canMove}
              onMove={(to) => onMove({ dossier, to })}
              focus={focusAfterMove?.id === dossier.id && focusAfterMove.stage === stage.id}
              onFocused={onFocused}
            />
          </li>
        ))}
      </ul>
      {column.hasNextPage && (
        <button type="button" className="more" onClick={() => void column.fetchNextPage()} disabled={column.isFetchingNextPage} aria-describedby={headingId}>
          {column.isFetchingNextPage ? "Loading…" : `Show more (${total - cards.length} left)`}
        </button>
      )}
    </section>
  );
}
