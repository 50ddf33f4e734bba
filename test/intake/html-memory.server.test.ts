// Issue 32: HTML-only mail cost about 100 times its size in memory (1, 5, 10, 20 MB raised a
// server's RSS by 112, 498, 998 and 1,770 MB; three 20 MB messages at once took it to 3.2 GB). The
// attack, on a real `dossier serve` process: HTML-only messages of 1 to 20 MB, one at a time and
// three at once, posted to POST /intake/{token}; its peak RSS (VmHWM, reset before each message
// through /proc/PID/clear_refs) may rise by at most 4 times what was sent (16 MB at the least, see
// NOISE). A memory assertion, not a timing one.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { tempDir } from "../helpers";
import { bootstrapKey, startServerProcess, type ServerProcess } from "../helpers/process";
import { compose } from "./compose";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MB = 1_048_576;
/** RSS grows in steps as the heaps grow, whatever the message: a 0.1 MB message raised it by up to
 * 2 MB, the same 1 MB message by 2 to 12 MB from one run to the next. Below this much a rise says
 * nothing about the message (before the fix, 1 MB of HTML raised it by 112 MB). */
const NOISE = 16 * MB;
/** A heap's step on top of four times the message: on a loaded machine (the whole suite beside it,
 * on a day twice as slow) 5 MB of HTML rose by 21.6-21.9 MB in every try against 21.1 for 4 times
 * its 5.3 MB sent; alone, well under. A leak or a copy too many is tens of megabytes (112 before the
 * fix of issue 32). */
const STEP = 4 * MB;
const bound = (sent: number) => Math.max(4 * sent + STEP, NOISE);

/** HTML as mail programs and newsletters write it: paragraphs, inline markup, links, a table. */
function htmlOf(bytes: number): string {
  const block =
    '<p style="margin:0 0 12px 0;font-family:Arial,sans-serif">Dear hiring team, I am writing to apply for the <b>nurse</b> position ' +
    'advertised on <a href="https://jobs.example.com/posts/12345?utm_source=mail">your site</a>. I have <i>eight years</i> of experience.</p>\n' +
    '<table role="presentation" cellpadding="0" cellspacing="0"><tr><td class="label">Phone:</td><td>+33 6 12 34 56 78</td></tr></table>\n' +
    "<div><span>Best regards,</span><br><span>Jane</span></div>\n";
  return `<html><body>${block.repeat(Math.ceil(bytes / block.length))}</body></html>`;
}

const status = (server: ServerProcess) => readFileSync(`/proc/${server.proc.pid}/status`, "utf8");
const field = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)![1]) * 1024;

/** How much the server's peak RSS rises while `work` runs, in bytes. */
async function rssRise(server: ServerProcess, work: () => Promise<void>): Promise<number> {
  // Writing 5 to clear_refs sets the peak (VmHWM) back to the current RSS (Linux 4.0 on).
  writeFileSync(`/proc/${server.proc.pid}/clear_refs`, "5");
  const before = field(status(server), "VmRSS");
  await work();
  return field(status(server), "VmHWM") - before;
}

describe("issue 32: an HTML-only message costs at most 4 times its size in memory", () => {
  test("1, 5, 10 and 20 MB of HTML one at a time, then three 20 MB messages at once, on a real server", async () => {
    const server = await startServerProcess(tempDir(), [], { DOSSIER_INTAKE_RATE_LIMIT: "1000" });
    const key = bootstrapKey(server);
    const get = async (path: string) => (await (await fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
    const flow = (await get("/flows?type=candidate")).data[0].id;
    const token = (await get(`/flows/${flow}/intake`)).data.address.split("@")[0];
    const post = async (message: Uint8Array) => {
      const answer = await fetch(`${server.url}/api/v1/intake/${token}`, { method: "POST", headers: { "content-type": "message/rfc822" }, body: message });
      return { status: answer.status, json: (await answer.json()) as any };
    };
    const message = (megabytes: number, n = 0) =>
      compose({ from: `"Jane ${megabytes}-${n}" <jane@example.com>`, subject: `HTML of ${megabytes} MB`, html: htmlOf(megabytes * MB), messageId: `<html-${megabytes}-${n}@example.com>` });

    // The first messages start the parsing thread and warm the code up: not what is measured.
    for (const warm of [0.1, 1]) expect((await post(await compose({ from: "warm@example.com", html: htmlOf(warm * MB), messageId: `<warm-${warm}@example.com>` }))).status).toBe(201);

    // Noise only ever adds to a rise (a heap growing a step, a collection running late, other
    // suites on the machine): each size is sent up to five times, as new messages, and its
    // smallest rise is what it costs (three were all over by half a megabyte in the CI run of
    // b870b8c, on a machine twice as slow as usual).
    const TRIES = 5;
    const rises: string[] = [];
    for (const megabytes of [1, 5, 10, 20]) {
      let raw: Uint8Array = new Uint8Array();
      let answer: Awaited<ReturnType<typeof post>>;
      let rise = Infinity;
      for (let n = 0; n < TRIES && rise > bound(raw.byteLength || 1); n++) {
        raw = await message(megabytes, n);
        rise = Math.min(rise, await rssRise(server, async () => {
          answer = await post(raw);
        }));
        expect(answer!.status).toBe(201);
      }
      rises.push(`${megabytes} MB (${raw.byteLength} bytes sent): +${(rise / MB).toFixed(1)} MB`);
      expect(rise, `${megabytes} MB of HTML raised the peak RSS by ${(rise / MB).toFixed(1)} MB`).toBeLessThanOrEqual(bound(raw.byteLength));
      if (megabytes > 2) {
        // Past 2 MB of HTML the rest is not read, and the notes say so.
        const dossier = await get(`/dossiers/${answer!.json.data.id}`);
        const notes: string = dossier.data.intake_notes;
        expect(notes.slice(-120)).toEndWith("\n\n[Only the first 2 MB (2,097,152 characters) of this message's HTML were read; the rest was ignored.]");
        const first = `HTML of ${megabytes} MB\n\nDear hiring team, I am writing to apply for the nurse position advertised on your site [https://jobs.example.com/posts/12345?utm_source=mail]. I have eight years of experience.\n\nPhone: +33 6 12 34 56 78\n\nBest regards,\nJane\n\nDear hiring team`;
        expect(notes.slice(0, first.length)).toBe(first);
      }
    }

    let sent = 0;
    let rise = Infinity;
    for (let n = 0; n < TRIES && rise > bound(sent || 1); n++) {
      const three = await Promise.all([1, 2, 3].map((i) => message(20, 10 * (n + 1) + i)));
      sent = three.reduce((sum, raw) => sum + raw.byteLength, 0);
      let statuses: number[] = [];
      rise = Math.min(rise, await rssRise(server, async () => {
        statuses = (await Promise.all(three.map(post))).map((a) => a.status);
      }));
      expect(statuses).toEqual([201, 201, 201]);
    }
    rises.push(`3 × 20 MB at once (${sent} bytes sent): +${(rise / MB).toFixed(1)} MB`);
    console.log(`peak RSS rise per message:\n  ${rises.join("\n  ")}`);
    expect(rise, `three 20 MB messages at once raised the peak RSS by ${(rise / MB).toFixed(1)} MB`).toBeLessThanOrEqual(bound(sent));
    server.proc.kill("SIGTERM");
    await server.exited;
  });
});
