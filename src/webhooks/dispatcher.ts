import type { Context } from "../context";

export interface Dispatcher {
  /** Stops taking new work and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

// Filled in by the webhooks issue: arms timers for due deliveries and wakes on ctx.onEventsCommitted.
export function startDispatcher(ctx: Context): Dispatcher {
  return { stop: async () => {} };
}
