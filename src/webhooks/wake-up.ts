// A dispatcher's one timer (src/webhooks/dispatcher.ts, lanes.ts): armed at the earliest time some
// delivery is due, moved only for an earlier one. Whether anything is due is decided by the
// injected clock (ctx.now) when it fires: the timer only wakes the dispatcher up.

/** setTimeout's longest delay; a later time is armed again when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class WakeUp {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private at = Infinity;
  private stopped = false;

  constructor(
    private readonly now: () => number,
    private readonly fire: () => void,
  ) {}

  /** Arms the timer for `at` (epoch ms) unless it is already armed earlier (or stopped). */
  armAt(at: number) {
    if (this.stopped || at >= this.at) return;
    if (this.timer) clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.at = Infinity;
        this.fire();
      },
      Math.min(Math.max(0, at - this.now()), MAX_TIMER_MS),
    );
    this.timer.unref?.();
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
