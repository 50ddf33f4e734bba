// The sign-in throttle (C12, C20), as a pure structure: time comes in as an argument.
//  - 5 failures for one email from one client address, and 30 from one address, in 15 minutes
//    trip it; an IPv6 address counts by its /64 in both, since one host usually holds a whole /64;
//  - counting per email AND address means nobody can lock a member out from elsewhere;
//  - while an address is over a limit every attempt from it is refused, the right password too,
//    and is not counted; a success clears nothing (else an attacker who knows one password could
//    reset its count between guesses of another).
// One process counts in memory (SignInThrottle); the nodes of one PostgreSQL database count
// together in it (SharedSignInThrottle, src/db/pg/counters.ts), with the same keys and limits (C19).
import type { Awaitable } from "../awaitable";
import type { SharedCounters } from "../db/store";

export const WINDOW_MS = 15 * 60_000;
export const EMAIL_LIMIT = 5;
export const ADDRESS_LIMIT = 30;
// No member's email is longer (RFC 5321): a longer one is counted by its start, so that the
// throttle's keys stay small whatever is sent.
const EMAIL_KEY_LENGTH = 254;
// Failure lists kept at once: beyond, the expired go, then the oldest lists (a flood of addresses
// or emails costs memory, not correctness for the attempts that count).
const MAX_KEYS = 100_000;

/** The key of a client address: an IPv4 address as is (also when IPv4-mapped), an IPv6 address
 * by its first 64 bits; anything else as given, cut to 64 characters (no address is longer). */
export function addressKey(address: string): string {
  let text = address.trim().slice(0, 64).toLowerCase().replace(/^\[|\]$/g, "");
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const mapped = /^(?:0*:)*:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped) return mapped[1];
  if (!text.includes(":")) return text;
  const groups = expandIpv6(text);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : text;
}

function expandIpv6(text: string): string[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string) => (s === "" ? [] : s.split(":"));
  let head = part(halves[0]);
  let tail = halves.length === 2 ? part(halves[1]) : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 in another spelling) stands for two groups.
  const last = (halves.length === 2 ? tail : head).at(-1);
  if (last?.includes(".")) {
    const bytes = last.split(".").map(Number);
    const tailGroups = [((bytes[0] << 8) | bytes[1]).toString(16), ((bytes[2] << 8) | bytes[3]).toString(16)];
    if (halves.length === 2) tail = [...tail.slice(0, -1), ...tailGroups];
    else head = [...head.slice(0, -1), ...tailGroups];
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}

const emailKey = (address: string, emailFolded: string) => `e:${address}:${emailFolded.slice(0, EMAIL_KEY_LENGTH)}`;

/** What the throttle says of a sign-in attempt: seconds to wait (nothing counted), or go on, the
 * attempt counted as a failure until `forgive` takes it back. */
export type Attempt = { wait: number } | { wait: 0; forgive: () => Awaitable<void> };

export interface Throttle {
  /** An attempt for this email from this address at `now`. An attempt is counted before its
   * password is checked, so that attempts sent at once cannot all pass the check before any has
   * failed; the count is taken back when the password proves right or is never checked. */
  attempt(emailFolded: string, address: string, now: number): Awaitable<Attempt>;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The throttle of the nodes of one database: the same keys and limits, counted in it. */
export class SharedSignInThrottle implements Throttle {
  constructor(private readonly counters: SharedCounters) {}

  async attempt(emailFolded: string, address: string, now: number): Promise<Attempt> {
    const key = addressKey(address);
    const keys = [
      { key: `a:${key}`, limit: ADDRESS_LIMIT },
      { key: emailKey(key, emailFolded), limit: EMAIL_LIMIT },
    ];
    const counted = await this.counters.failSignIn(key, keys, WINDOW_MS, now);
    return counted.forgive ? { wait: 0, forgive: counted.forgive } : { wait: seconds(counted.wait) };
  }
}

export class SignInThrottle implements Throttle {
  /** Failure times (epoch ms, ascending) by "a:<address>" and "e:<address>:<email>". */
  private readonly failures = new Map<string, number[]>();

  attempt(emailFolded: string, address: string, now: number): Attempt {
    const wait = this.retryAfter(emailFolded, address, now);
    return wait > 0 ? { wait } : { wait: 0, forgive: this.fail(emailFolded, address, now) };
  }

  /** Seconds until an attempt from this address for this email may be tried, or 0 when it may now. */
  retryAfter(emailFolded: string, address: string, now: number): number {
    const key = addressKey(address);
    const wait = Math.max(this.wait(`a:${key}`, ADDRESS_LIMIT, now), this.wait(emailKey(key, emailFolded), EMAIL_LIMIT, now));
    return wait > 0 ? seconds(wait) : 0;
  }

  /** Counts a failure; returns the way to take it back. An attempt is counted before its password
   * is checked, so that attempts sent at once cannot all pass the check before any has failed; the
   * count is taken back when the password proves right or is never checked. */
  fail(emailFolded: string, address: string, now: number): () => void {
    const key = addressKey(address);
    const keys = [`a:${key}`, emailKey(key, emailFolded)];
    for (const k of keys) this.add(k, now);
    return () => {
      for (const k of keys) {
        const times = this.failures.get(k);
        const at = times?.lastIndexOf(now) ?? -1;
        if (at >= 0) times!.splice(at, 1);
        if (times?.length === 0) this.failures.delete(k);
      }
    };
  }

  /** Ms until the list under `key` holds fewer than `limit` failures within the window. */
  private wait(key: string, limit: number, now: number): number {
    const times = this.recent(key, now);
    if (times.length < limit) return 0;
    return times[times.length - limit] + WINDOW_MS - now;
  }

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const first = times.findIndex((t) => t > now - WINDOW_MS);
    if (first === -1) {
      this.failures.delete(key);
      return [];
    }
    if (first > 0) times.splice(0, first);
    return times;
  }

  private add(key: string, now: number) {
    const times = this.recent(key, now);
    if (times.length === 0) {
      if (this.failures.size >= MAX_KEYS) this.sweep(now);
      this.failures.set(key, [now]);
    } else {
      times.push(now);
    }
  }

  private sweep(now: number) {
    for (const key of this.failures.keys()) this.recent(key, now);
    for (const key of this.failures.keys()) {
      if (this.failures.size < MAX_KEYS) break;
      this.failures.delete(key);
    }
  }
}
