// Issue 32: SMTP slots could be held for ever. 5 connections from each of 10 loopback addresses
// (127.0.0.2 ... 127.0.0.11 all reach loopback on Linux), each sending a NOOP well within the 60 s
// idle limit, took all 50 slots, and every new sender got 421. Each test is the attack, spoken over
// real sockets to the real listener; time moves by the listener's injected timers, never by waiting.
// On both engines (C19): the listener looks tokens up and stores messages in the app's store.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Timers } from "../../src/intake/smtp";
import { SMTP_LIMITS } from "../../src/intake/smtp";
import { ENGINES } from "../helpers/stores";
import { listenerOn, SmtpSession, type ListenerOptions } from "./listen";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** Timers that run only when the test moves time forward. */
class ManualTimers implements Timers {
  private now = 0;
  private waiting: { due: number; run: () => void; cancelled: boolean }[] = [];

  schedule(ms: number, run: () => void) {
    const entry = { due: this.now + ms, run, cancelled: false };
    this.waiting.push(entry);
    return () => {
      entry.cancelled = true;
    };
  }

  /** Moves time forward by `ms`, running what falls due, in order. */
  advance(ms: number) {
    this.now += ms;
    const due = this.waiting.filter((e) => !e.cancelled && e.due <= this.now).sort((a, b) => a.due - b.due);
    this.waiting = this.waiting.filter((e) => !due.includes(e) && !e.cancelled);
    for (const entry of due) entry.run();
  }
}

const MINUTE = 60_000;
const attackers = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 2}`);

/** A whole message over a raw session: MAIL, RCPT, DATA, the message; the final reply. */
async function deliver(session: SmtpSession, to: string, subject: string): Promise<string> {
  expect(await session.send("MAIL FROM:<sender@example.com>")).toStartWith("250");
  expect(await session.send(`RCPT TO:<${to}>`)).toStartWith("250");
  expect(await session.send("DATA")).toStartWith("354");
  return session.send(`From: "Sender" <sender@example.com>\r\nSubject: ${subject}\r\n\r\nHello\r\n.`);
}

describe.each(ENGINES)("issue 32: SMTP slots cannot be held for ever, on %s", (engine) => {
  const listener = (options: ListenerOptions = {}) => listenerOn(engine, options);

  test("5 connections from each of 10 addresses, all holding: a sender from a new address still gets in and delivers", async () => {
    const { address, port } = await listener();
    const held: SmtpSession[] = [];
    for (const from of attackers) {
      for (let i = 0; i < 5; i++) {
        const session = await SmtpSession.open(port, from);
        if (session.greeting.startsWith("220")) {
          expect(await session.send("NOOP")).toStartWith("250");
          held.push(session);
        } else expect(session.greeting).toStartWith("421");
      }
    }
    const newcomer = await SmtpSession.open(port, "127.0.0.12");
    expect(newcomer.greeting).toStartWith("220");
    expect(await newcomer.send("EHLO newcomer.example")).toStartWith("250");
    expect(await deliver(newcomer, address, "from a new sender")).toStartWith("250");
    // The last 10 slots are kept for addresses that have no connection open: 8 addresses fill the
    // other 40, the 9th and 10th get one each from the reserve, and 8 are left for new senders.
    expect(SMTP_LIMITS).toMatchObject({ connections: 50, perAddress: 5, reserved: 10 });
    expect(held.length).toBe(42);
    // The holders are all still there: nobody was pushed out to make room.
    expect(held.every((s) => !s.closed)).toBe(true);
  });

  test("a connection that has not completed a message in 10 minutes is closed with 421; a message starts its 10 minutes again", async () => {
    const timers = new ManualTimers();
    const { address, port } = await listener({ smtp: { timers } });
    const idler = await SmtpSession.open(port, "127.0.0.2");
    const worker = await SmtpSession.open(port, "127.0.0.3");
    expect(await idler.send("EHLO idler.example")).toStartWith("250");
    expect(await worker.send("EHLO worker.example")).toStartWith("250");
    timers.advance(9 * MINUTE);
    // A NOOP now and then is not a message: it keeps the socket from the 60 s idle limit only.
    expect(await idler.send("NOOP")).toStartWith("250");
    expect(await deliver(worker, address, "within its ten minutes")).toStartWith("250");
    timers.advance(1 * MINUTE);
    expect(await idler.whenClosed()).toBe(true);
    expect(idler.replies.at(-1)).toMatch(/^421 4\.4\.2 /);
    expect(await worker.send("NOOP")).toStartWith("250");
    timers.advance(9 * MINUTE);
    expect(worker.closed).toBe(false);
    timers.advance(1 * MINUTE);
    expect(await worker.whenClosed()).toBe(true);
    expect(worker.replies.at(-1)).toMatch(/^421 4\.4\.2 /);
  });

  test("the 10 addresses' 42 connections are all gone after 10 minutes of NOOPs, and their slots are free again", async () => {
    const timers = new ManualTimers();
    const { port } = await listener({ smtp: { timers } });
    const held: SmtpSession[] = [];
    for (const from of attackers) {
      for (let i = 0; i < 5; i++) {
        const session = await SmtpSession.open(port, from);
        if (session.greeting.startsWith("220")) held.push(session);
      }
    }
    expect(held.length).toBe(42);
    for (let minute = 0; minute < 10; minute++) {
      for (const session of held) if (!session.closed) await session.send("NOOP");
      timers.advance(MINUTE);
    }
    for (const session of held) expect(await session.whenClosed()).toBe(true);
    // Every slot is free again: a sender gets its 5 connections.
    const again = await Promise.all(Array.from({ length: 5 }, () => SmtpSession.open(port, "127.0.0.2")));
    expect(again.map((s) => s.greeting.slice(0, 3))).toEqual(["220", "220", "220", "220", "220"]);
  });

  test("more than 20 commands without a message: the 21st is answered 421 and the connection closed", async () => {
    const { port } = await listener();
    const session = await SmtpSession.open(port, "127.0.0.2");
    expect(await session.send("EHLO holder.example")).toStartWith("250");
    for (let i = 2; i <= 20; i++) expect(await session.send(i % 2 ? "NOOP" : "RSET")).toStartWith("250");
    expect(await session.send("NOOP")).toMatch(/^421 4\.7\.0 /);
    expect(await session.whenClosed()).toBe(true);
  });

  test("refused recipients count as commands (RCPT TO to unknown addresses cannot hold the connection either)", async () => {
    const { port } = await listener();
    const session = await SmtpSession.open(port, "127.0.0.2");
    expect(await session.send("EHLO holder.example")).toStartWith("250");
    expect(await session.send("MAIL FROM:<x@example.com>")).toStartWith("250");
    for (let i = 3; i <= 20; i++) expect(await session.send(`RCPT TO:<${"z".repeat(26)}@localhost>`)).toStartWith("550");
    expect(await session.send(`RCPT TO:<${"z".repeat(26)}@localhost>`)).toMatch(/^421 /);
    expect(await session.whenClosed()).toBe(true);
  });

  test("a message starts the count again: 20 commands, a message, 20 more commands are all answered", async () => {
    const { address, port } = await listener();
    const session = await SmtpSession.open(port, "127.0.0.2");
    expect(await session.send("EHLO sender.example")).toStartWith("250");
    for (let i = 2; i <= 17; i++) expect(await session.send("NOOP")).toStartWith("250");
    // MAIL (18), RCPT (accepted: not counted), DATA (19): the count starts again at the message.
    expect(await deliver(session, address, "first")).toStartWith("250");
    for (let i = 1; i <= 20; i++) expect(await session.send("NOOP")).toStartWith("250");
    expect(await session.send("NOOP")).toStartWith("421");
  });

  test("a connection refused for its address gives back no slot: the 6th, 7th and 8th from one address are all refused", async () => {
    const { port } = await listener();
    const open = await Promise.all(Array.from({ length: 5 }, () => SmtpSession.open(port, "127.0.0.2")));
    expect(open.every((s) => s.greeting.startsWith("220"))).toBe(true);
    for (let i = 6; i <= 8; i++) {
      const refused = await SmtpSession.open(port, "127.0.0.2");
      expect(refused.greeting).toStartWith("421");
      expect(await refused.whenClosed()).toBe(true);
      await Bun.sleep(50); // the listener's onClose runs on its next turn
    }
  });
});
