// What a webhook's receiver is to tests (C7): a server on 127.0.0.1 that answers 200 to everything
// and keeps what it got, and the signature check a receiver would write, with node:crypto rather
// than our signing code.
import { createHmac, timingSafeEqual } from "node:crypto";
import { onCleanup } from "./cleanup";

export interface Delivery {
  headers: Headers;
  body: string;
}

/** A receiver on 127.0.0.1, stopped after the test file. */
export function webhookReceiver() {
  const received: Delivery[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      received.push({ headers: request.headers, body: await request.text() });
      return new Response("ok");
    },
  });
  onCleanup(() => server.stop(true));
  /** Waits, polling, until `found` returns a delivery; throws after `timeoutMs` saying `what`. */
  const poll = async <T>(found: () => T | undefined, timeoutMs: number, what: string): Promise<T> => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (performance.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms (got ${received.length} deliveries)`);
      await Bun.sleep(5);
    }
  };
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    /** Every delivery so far, once there are at least `count`. */
    waitFor: (count: number, timeoutMs = 60_000) => poll(() => (received.length >= count ? received : undefined), timeoutMs, `${count} deliveries`),
    /** The first delivery of an event of `type` about `dossierId`. */
    event: (type: string, dossierId: string, timeoutMs = 60_000) =>
      poll(
        () => received.find((r) => {
          const body = JSON.parse(r.body);
          return body.type === type && body.data.id === dossierId;
        }),
        timeoutMs,
        `${type} for ${dossierId}`,
      ),
  };
}

/** C7's signature `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">[,v1=...]`: true when a v1
 * matches `secret` and t is within `toleranceSeconds` of now (`nowMs`: the machine's clock, or the
 * clock the sender was given). */
export function verifySignature(header: string, rawBody: string, secret: string, toleranceSeconds = 300, nowMs = Date.now()): boolean {
  const pairs = header.split(",").map((part) => {
    const at = part.indexOf("=");
    return [part.slice(0, at), part.slice(at + 1)] as const;
  });
  const t = pairs.find(([key]) => key === "t")?.[1];
  if (!t || Math.abs(nowMs / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`, "utf8").digest();
  return pairs
    .filter(([key]) => key === "v1")
    .some(([, hex]) => {
      const given = Buffer.from(hex, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
