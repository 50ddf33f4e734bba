// What the store answers (C19): the value itself where the engine answers at once (SQLite), a
// promise of it where it must wait (PostgreSQL). Services await it and are written once for both
// engines. The hot read path (the key check, src/http/route.ts) chains with `chain` instead, so a
// GET that SQLite answers goes from the key check to its answer without a promise: one on every
// layer of it cost a fifth of its time (docs/performance.md).

export type Awaitable<T> = T | Promise<T>;

/** `next` applied to `value`: at once when it is a value, once it settles when it is a promise. */
export function chain<T, R>(value: Awaitable<T>, next: (value: T) => Awaitable<R>): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
