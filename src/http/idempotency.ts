// Idempotency-Key (C16, C20): the first answer to a key is stored in the unit that makes the
// request's effect, so that a retry, even one after a crash between the commit and the answer,
// gets that answer again instead of a second effect.
import type { Context } from "../context";
import type { RememberedAnswer, StoredAnswer } from "../db/idempotency";
import { ApiError, type ErrorCode } from "../errors";

/** 1 to 255 printable ASCII characters (C16). */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** How often, at most, a process removes the keys past their 24 hours. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export const malformedKey = () => new ApiError("invalid_body", "Idempotency-Key must be 1 to 255 printable ASCII characters");

/** The request's Idempotency-Key: null without one, `malformed` outside C16's format. */
export function idempotencyKey(request: Request): string | null | "malformed" {
  const key = request.headers.get("idempotency-key");
  if (key === null) return null;
  return KEY_FORMAT.test(key) ? key : "malformed";
}

/** What a request with a key must repeat to be a replay: method, path with its query, body's bytes. */
export interface Fingerprint {
  method: string;
  path: string;
  body_hash: string;
}

export function fingerprint(request: Request, body: Uint8Array): Fingerprint {
  const url = new URL(request.url);
  return { method: request.method, path: url.pathname + url.search, body_hash: new Bun.CryptoHasher("sha256").update(body).digest("hex") };
}

/** An answer as stored: status, body, and the headers C16 keeps. */
export type Answer = Pick<StoredAnswer, "status" | "content_type" | "location" | "body">;

/** Every answer is stored but 401, 402, 403, 429, idempotency_key_in_use and 5xx (C20). Those
 * before the key is looked at (authentication, a 409 of a running key) never get here. */
export const storable = (status: number) => status < 500 && ![401, 402, 403, 429].includes(status);

const errorAnswer = (error: ApiError): Answer => ({
  status: error.status,
  content_type: "application/json;charset=utf-8",
  location: null,
  body: JSON.stringify({ error: { code: error.code, message: error.message, ...(error.param === undefined ? {} : { param: error.param }) } }),
});

/** One key of one principal in one organization. */
export interface KeyScope {
  organizationId: string;
  principalId: string;
  key: string;
}

/** Thrown inside a unit whose request's key another request answered first: that one ran on
 * another node (C19: this node's running keys are its own), and this unit's effect must roll back
 * so that the key has one effect; the request then answers the first answer, replayed. */
export class KeyAnsweredElsewhere extends Error {
  constructor() {
    super("another request with this Idempotency-Key was answered first");
  }
}

/** The keys of requests running in this process, behind 409 idempotency_key_in_use: in memory, so
 * that a crash leaves no marker behind (one server process owns a data folder). */
const running = new WeakMap<Context, Set<string>>();
const lastSweep = new WeakMap<Context, number>();

export class Idempotency {
  private readonly mark: string;
  private readonly since: string;
  private asked: Fingerprint | null = null;
  /** Whether this request stored the key's answer already (a later unit replaces it). */
  private claimed = false;

  constructor(
    private readonly ctx: Context,
    private readonly scope: KeyScope,
  ) {
    this.mark = `${scope.organizationId}\n${scope.principalId}\n${scope.key}`;
    this.since = new Date(ctx.now().getTime() - RETENTION_MS).toISOString();
  }

  /** The stored answer when this request (`asked`) repeats the key's first; 422 when the key was
   * used for another request; null when the key is new. */
  async stored(asked: Fingerprint): Promise<Answer | null> {
    this.asked = asked;
    const { organizationId, principalId, key } = this.scope;
    const found = await this.ctx.store.idempotency.find(organizationId, principalId, key, this.since);
    if (!found) return null;
    if (found.method !== asked.method || found.path !== asked.path || found.body_hash !== asked.body_hash) {
      throw new ApiError("idempotency_key_reused", "this Idempotency-Key was used for another request (method, path or body); use a new key");
    }
    return found;
  }

  /** After KeyAnsweredElsewhere: the answer the other request stored (422 when its request was
   * another), to be replayed. */
  async answeredElsewhere(): Promise<Answer> {
    if (!this.asked) throw new Error("answeredElsewhere before stored");
    const first = await this.stored(this.asked);
    if (!first) throw new ApiError("idempotency_key_in_use", "a request with this Idempotency-Key is still running; retry later");
    return first;
  }

  /** Marks the key as running: 409 while another request with it runs. */
  begin() {
    let keys = running.get(this.ctx);
    if (!keys) running.set(this.ctx, (keys = new Set()));
    if (keys.has(this.mark)) throw new ApiError("idempotency_key_in_use", "a request with this Idempotency-Key is still running; retry later");
    keys.add(this.mark);
  }

  end() {
    running.get(this.ctx)?.delete(this.mark);
  }

  /** Stores the answer to the request `stored` was asked about; runs inside a unit of work, which
   * it fails with KeyAnsweredElsewhere when another request stored the key's answer first. */
  async writeAnswer(answer: Answer) {
    if (!this.asked) throw new Error("writeAnswer before stored");
    const now = this.ctx.now();
    const row: RememberedAnswer = {
      organization_id: this.scope.organizationId,
      principal_id: this.scope.principalId,
      key: this.scope.key,
      ...this.asked,
      ...answer,
      created_at: now.toISOString(),
    };
    if (this.claimed) await this.ctx.store.idempotency.remember(row);
    else if (await this.ctx.store.idempotency.claim(row, this.since)) this.claimed = true;
    else throw new KeyAnsweredElsewhere();
    if (now.getTime() - (lastSweep.get(this.ctx) ?? 0) >= SWEEP_EVERY_MS) {
      lastSweep.set(this.ctx, now.getTime());
      await this.ctx.store.idempotency.sweep(this.since);
    }
  }

  /** After a refusal of a request that ran (a 4xx C20 stores), stores its error answer in a unit of
   * its own; a failure to store it is not the request's error, which the caller rethrows. */
  async writeRefusal(error: unknown): Promise<void> {
    if (!(error instanceof ApiError) || !storable(error.status)) return; // KeyAnsweredElsewhere is not one
    const answer = errorAnswer(error);
    await this.ctx.store.write(() => this.writeAnswer(answer)).catch(() => {});
  }
}

/** A stored answer, given again (C16): with `Idempotent-Replayed: true` and the current rate-limit
 * headers; an error is rethrown, so that it is rendered as any error is. */
export function replay(answer: Answer, headers: Record<string, string | number>): Response {
  headers["idempotent-replayed"] = "true";
  if (answer.status >= 400) {
    const { error } = JSON.parse(answer.body) as { error: { code: ErrorCode; message: string; param?: string } };
    throw new ApiError(error.code, error.message, undefined, error.param ?? null);
  }
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) given[name] = String(value);
  if (answer.content_type) given["content-type"] = answer.content_type;
  if (answer.location) given.location = answer.location;
  return new Response(answer.body, { status: answer.status, headers: given });
}
