// The one way in for mail, shared by the SMTP listener and POST /intake/{token} (C15, C20): the
// checks on a token in C20's order (unknown 404, plan 402, the token's own limit 429), the parsing
// thread, and the services that turn a message into a dossier.
import type { Context } from "../context";
import { ApiError, notFound } from "../errors";
import { RateLimiter } from "../http/rate-limiter";
import { intakeTarget, takeIn, type IntakeTarget, type Taken } from "../services/intake";
import { MessageParser } from "./parser";

export interface Admitted {
  target: IntakeTarget;
  token: string;
}

export class IntakeDesk {
  /** Per token, not per organization: a flood of mail never spends the organization's API budget
   * (C20), and the SMTP and HTTP ways count together. */
  private readonly limiter = new RateLimiter();
  readonly parser: MessageParser;

  constructor(private readonly ctx: Context) {
    this.parser = new MessageParser(ctx.logger);
  }

  /** Where mail to `token` goes. Throws ApiError: not_found (an unknown token), plan_required
   * (not counted), rate_limited (with `retryAfter` seconds). */
  async admit(token: string): Promise<Admitted> {
    const target = await intakeTarget(this.ctx, token);
    if (!target) throw notFound("no intake address has this token");
    if (target.plan !== "growth") throw new ApiError("plan_required", `email intake requires the Growth plan; this organization is on ${target.plan}`);
    const rate = await this.count(token.toLowerCase());
    if (!rate.allowed) {
      throw new ApiError("rate_limited", `intake limit of ${rate.limit} messages a minute exceeded for this address`, Math.max(1, rate.reset));
    }
    return { target, token };
  }

  /** Counts a message for the token: in this process, or in the database the nodes share (C19),
   * there under the token's hash (tokens are secrets: sealed at rest, never stored as they are). */
  private count(token: string) {
    const limit = this.ctx.config.intakeRateLimit;
    const now = this.ctx.now().getTime();
    const counters = this.ctx.store.counters;
    if (!counters) return this.limiter.hit(`intake:${token}`, limit, now);
    return counters.hit(`intake:${Bun.CryptoHasher.hash("sha256", token, "hex")}`, limit, now);
  }

  /** Parses `raw` once (off this thread) and makes a dossier of it for each target; resolves once
   * all are durable. Rejects with UnreadableMessage for a message that cannot be read. `remember`
   * runs last in each target's unit of work (takeIn). */
  async receive(targets: IntakeTarget[], raw: Uint8Array, remember?: (taken: Taken) => Promise<void>): Promise<Taken[]> {
    const application = await this.parser.parse(raw);
    return Promise.all(targets.map((target) => takeIn(this.ctx, target, application, remember)));
  }

  close() {
    this.parser.close();
  }
}
