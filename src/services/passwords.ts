// Passwords and the secrets of members' links and sessions (C12, C20). Passwords are hashed with
// argon2id through Bun.password, which runs the hash on a thread of its own; the gate keeps at
// most one hash per core under way and a short queue, so that a flood of sign-ins is refused
// (503 server_busy) instead of taking every core and all the memory (19 MiB a hash).
import { availableParallelism } from "node:os";
import { ApiError } from "../errors";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const ARGON2 = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;

/** The password if it is one we accept, else 400 invalid_body naming `password`. Lengths count
 * code points, so that a password of accented letters is not judged by its UTF-16 units. */
export function checkPassword(password: unknown): string {
  if (typeof password !== "string") throw new ApiError("invalid_body", "password: must be a string");
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw new ApiError("invalid_body", `password: must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
  return password;
}

/** Runs at most `running` jobs at once and keeps at most `waiting` more in line; a job beyond
 * those is refused at once with 503 server_busy (Retry-After: 1). */
export class HashGate {
  private active = 0;
  private readonly line: (() => void)[] = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.line.length >= this.waiting) throw new ApiError("server_busy", "the server is busy; try again in a moment", 1);
      await new Promise<void>((resolve) => this.line.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line, so `active` counts it without a gap.
      const next = this.line.shift();
      if (next) next();
      else this.active--;
    }
  }

  get busy(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.line.length };
  }
}

const gate = new HashGate(availableParallelism(), 64);

export const hashPassword = (password: string): Promise<string> => gate.run(() => Bun.password.hash(password, ARGON2));

// Verified instead of a member's hash when the email is unknown (or has no password yet), so that
// the answer takes as long as for a known one (C12). Made once, on first need (again if the gate
// refused it).
let dummy: Promise<string> | undefined;

/** The stand-in hash: made like a member's (same algorithm and costs), so verifying it costs the same. */
export function standInHash(): Promise<string> {
  dummy ??= hashPassword(randomToken()).catch((error) => {
    dummy = undefined;
    throw error;
  });
  return dummy;
}

let verifications = 0;

/** How many argon2id verifications this process has run: every sign-in attempt that gets past
 * the throttle runs exactly one, whatever the email (what the tests check, in place of a clock). */
export const verificationsRun = () => verifications;

const verify = (password: string, hash: string) =>
  gate.run(() => {
    verifications++;
    return Bun.password.verify(password, hash);
  });

/** Whether `password` matches `hash`; with a null hash, a verification that costs as much and fails. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (hash !== null) return verify(password, hash);
  await verify(password, await standInHash()); // the stand-in is made outside the gate: a job in it must never wait for another
  return false;
}

/** 32 random bytes, base64url (43 characters): a session cookie, a setup link's token. */
export const randomToken = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

export const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** What is stored of a token: its SHA-256, hex. The token has 256 random bits, so a fast hash
 * is enough: nobody can search that space, unlike a password's. */
export const hashToken = (token: string): string => Bun.CryptoHasher.hash("sha256", token, "hex");
