// A dossier's card on the board: name (the link to its page), company, the assignee's avatar, deal
// value, overdue badge, CV mark, its open tasks' count and a mark when one of them is overdue (C22),
// and for those who may move it, the drag handle (the whole card)
// and the "Move to…" menu, shown when the card has the pointer or the focus (issue 39). In the
// menu, the arrow keys, Home and End go from stage to stage; Escape closes it.
import { useDraggable } from "@dnd-kit/core";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "wouter";
import type { Dossier, Stage } from "../api/client";
import { Avatar } from "../ui/avatar";
import type { TaskMarks } from "./queries";
import { isOverdue, money } from "./sums";

interface CardProps {
  dossier: Dossier;
  stages: Stage[];
  names: Map<string, string> | undefined;
  canMove?: boolean;
  onMove?: (stageId: string) => void;
  /** Take the focus once shown (the card just moved, or its move was undone). */
  focus?: boolean;
  onFocused?: () => void;
  /** The copy that follows the pointer while dragging. */
  overlay?: boolean;
  /** Whether Tab stops at this card (a column's first): the others are reached by the arrow keys
   * (board.tsx), so that Tab crosses a board column by column, not card by card (issue 39). */
  tabStop?: boolean;
  /** Its dossier's open tasks (C22), once read: undefined until then. */
  tasks?: TaskMarks;
}

export function Card({ dossier, stages, names, canMove = false, onMove, focus = false, onFocused, overlay = false, tabStop = true, tasks }: CardProps) {
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: dossier.id, data: { dossier }, disabled: !canMove || overlay });
  const nameId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus && trigger.current) {
      trigger.current.focus();
      onFocused?.();
    }
  }, [focus, onFocused]);
  const assignee = dossier.assigned_to ? (names?.get(dossier.assigned_to) ?? "someone else") : null;
  const deal = dossier.deal_size !== null && dossier.deal_currency !== null ? money(dossier.deal_size, dossier.deal_currency) : null;
  const now = Date.now();
  const overdue = isOverdue(dossier, now);
  const openTasks = tasks?.open ?? 0;
  const lateTasks = tasks ? tasks.due.filter((due) => due < now).length : 0;
  const className = ["card", isDragging ? "dragging" : "", overlay ? "overlay" : ""].filter(Boolean).join(" ");
  return (
    <article ref={overlay ? undefined : setNodeRef} className={className} aria-labelledby={nameId} data-dossier={dossier.id} {...(overlay ? {} : listeners)}>
      <h3 id={nameId}>
        {overlay ? (
          dossier.name
        ) : (
          // Not the browser's own drag of a link: the card's drag starts here too.
          <Link href={`/dossiers/${dossier.id}`} draggable={false} tabIndex={tabStop ? undefined : -1} aria-describedby={tabStop ? "board-help" : undefined}>
            {dossier.name}
          </Link>
        )}
      </h3>
      {dossier.company && <p className="company">{dossier.company}</p>}
      {assignee && (
        <p className="assignee">
          <Avatar name={assignee} label={`Assigned to ${assignee}`} />
        </p>
      )}
      {(deal || overdue || dossier.cv_url !== null || openTasks > 0) && (
        <p className="marks">
          {deal && <span className="deal">{deal}</span>}
          {overdue && <span className="badge overdue">Overdue</span>}
          {openTasks > 0 && (
            // Words, not a colour alone: "2 tasks" reads "2 open tasks", "1 overdue" reads "1 task overdue".
            <span className="badge tasks">
              {openTasks} <span className="sr-only">open </span>
              {openTasks === 1 ? "task" : "tasks"}
            </span>
          )}
          {lateTasks > 0 && (
            <span className="badge task-overdue">
              {lateTasks} <span className="sr-only">{lateTasks === 1 ? "task " : "tasks "}</span>
              overdue
            </span>
          )}
          {dossier.cv_url !== null && (
            <span className="badge cv">
              CV<span className="sr-only"> attached</span>
            </span>
          )}
        </p>
      )}
      {canMove && onMove && !overlay && <MoveMenu stages={stages} current={dossier.current_stage_id} describedBy={nameId} trigger={trigger} onMove={onMove} tabStop={tabStop} />}
    </article>
  );
}

interface MoveMenuProps {
  stages: Stage[];
  current: string | null;
  describedBy: string;
  trigger: React.RefObject<HTMLButtonElement | null>;
  onMove: (stageId: string) => void;
  tabStop: boolean;
}

/** Where the open list shows: fixed to the window below the button (above it in the window's lower
 * part), so that a column, which scrolls on its own, never cuts it off. */
type Place = { top: number; right: number } | { bottom: number; right: number };

/** "Move to…": a button that opens the list of the other stages (C14's keyboard way). Escape closes
 * it and gives the focus back to the button; scrolling anything else closes it too. */
function MoveMenu({ stages, current, describedBy, trigger, onMove, tabStop }: MoveMenuProps) {
  const [place, setPlace] = useState<Place | null>(null);
  const open = place !== null;
  const setOpen = (opening: boolean) => {
    const box = trigger.current?.getBoundingClientRect();
    if (!opening || !box) return setPlace(null);
    const right = Math.max(0, window.innerWidth - box.right);
    setPlace(box.bottom > window.innerHeight * 0.6 ? { bottom: window.innerHeight - box.top + 4, right } : { top: box.bottom + 4, right });
  };
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!open) return;
    list.current?.querySelector("button")?.focus({ preventScroll: true });
    const onScroll = (event: Event) => {
      if (!list.current?.contains(event.target as Node)) setPlace(null);
    };
    window.addEventListener("scroll", onScroll, true);
    return () => window.removeEventListener("scroll", onScroll, true);
  }, [open]);
  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      close();
      return;
    }
    const items = [...(list.current?.querySelectorAll("button") ?? [])];
    if (!open || items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      event.key === "ArrowDown" ? (at + 1) % items.length
      : event.key === "ArrowUp" ? (at <= 0 ? items.length - 1 : at - 1)
      : event.key === "Home" ? 0
      : event.key === "End" ? items.length - 1
      : null;
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation();
    items[next].focus({ preventScroll: true });
  };
  return (
    <div className="move" onKeyDown={onKeyDown} onPointerDown={(event) => event.stopPropagation()}>
      <button ref={trigger} type="button" tabIndex={tabStop ? undefined : -1} aria-expanded={open} aria-controls={listId} aria-describedby={describedBy} onClick={() => setOpen(!open)}>
        Move to…
      </button>
      {open && (
        <ul id={listId} ref={list} className="stages" aria-label="Stages" style={{ position: "fixed", ...place }}>
          {stages
            .filter((stage) => stage.id !== current)
            .map((stage) => (
              <li key={stage.id}>
                <button
                  type="button"
                  onClick={() => {
                    setOpen(false);
                    onMove(stage.id);
                  }}
                >
                  {stage.name}
                </button>
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}
