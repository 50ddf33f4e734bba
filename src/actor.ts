// Who makes a change (C18's history `actor`), known wherever a change is written without passing
// it through every service: the route layer, email intake and the CLI set it around their work,
// and the store's group commit makes the writer's actor current again while its unit runs.
import { AsyncLocalStorage } from "node:async_hooks";

export interface Actor {
  type: "key" | "member" | "email" | "cli" | "import";
  id: string;
  name: string | null;
}

const current = new AsyncLocalStorage<Actor>();
/** The actor when none is set around the work: the CLI's, for the whole process. */
let processActor: Actor | null = null;

/** Runs `work` (and what it awaits) as `actor`. */
export const asActor = <T>(actor: Actor, work: () => T): T => current.run(actor, work);

/** `unit` as it will run later, elsewhere (a group commit's flush): as the actor of now, or as
 * nobody, never as whoever happens to be running it then. */
export function bindActor<T>(unit: () => T): () => T {
  const actor = current.getStore();
  return actor ? () => current.run(actor, unit) : () => current.exit(unit);
}

/** Runs `work` as nobody: what it starts and outlives the caller (a group commit's run, its
 * commit listeners) is nobody's. */
export const withoutActor = <T>(work: () => T): T => current.exit(work);

/** The actor of the work in progress; null when nobody was named (a test calling a service). */
export const currentActor = (): Actor | null => current.getStore() ?? processActor;

/** Names the actor of everything this process does outside asActor (the CLI). */
export function setProcessActor(actor: Actor) {
  processActor = actor;
}
