// CVs on S3-compatible object storage (C5, C19): a real s3rver (test/helpers/s3.ts), on both stores.
// Atomic create with a CV, replacement, the streamed download, a failed unit of work leaving no
// object (or the replaced bytes back), S3 down at upload (503, nothing persists), and the sweep,
// which removes old objects no committed row names and never one that a committed row names.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { cvUrl } from "../../src/files";
import { SWEEP_AGE_MS } from "../../src/files/s3";
import { filesSweepJob } from "../../src/files/sweep-job";
import { JobRunner } from "../../src/jobs";
import { readApplication } from "../../src/intake/message";
import { intakeAddress, intakeTarget, takeIn } from "../../src/services/intake";
import { recordEvent } from "../../src/services/outbox";
import { call, filesUnder, makeOrg, onCleanup, type Org } from "../helpers";
import { keysUnder, startS3 } from "../helpers/s3";
import { compose } from "../intake/compose";
import { appOn, ENGINES, rowCountsOf } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const HOUR = 3_600_000;
const s3 = await startS3();
const bucket = s3.client();
const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7\n${text}\n%%EOF\n`);
const pdfFile = (bytes: Uint8Array) => new File([bytes], "cv.pdf", { type: "application/pdf" });

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

async function download(app: DossierApp<Store>, key: string, id: string) {
  const response = await app.handle(new Request(`http://localhost/api/v1/dossiers/${id}/cv`, { headers: { authorization: `Bearer ${key}` } }));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

for (const engine of ENGINES) {
  describe(`CVs on S3, ${engine} store (C5, C19)`, async () => {
    const prefix = `cvs-${engine}`;
    const app = await appOn(engine, { env: s3.env(prefix) });
    const org: Org = await makeOrg(app, { rateLimit: 1_000_000 });
    const ctx = app.dossier;
    const objects = () => keysUnder(bucket, `${prefix}/`);
    const stored = async (url: string) => new Uint8Array(await bucket.file(`${prefix}/${url}`).bytes());
    const create = (fields: Record<string, string | Blob>) => call(app, "POST", "/dossiers", { key: org.key, raw: form(fields) });

    test("a create with a CV puts the object under <prefix>/<cv_url>; GET /cv streams its bytes; nothing lands in the data folder", async () => {
      const bytes = pdf("Ada Lovelace");
      const answer = await create({ type: "candidate", name: "Ada", cv: pdfFile(bytes) });
      expect(answer.status).toBe(201);
      const d = answer.json.data;
      expect(d.cv_url).toBe(cvUrl(org.id, d.id));
      expect(await objects()).toContain(`${prefix}/${d.cv_url}`);
      expect(await stored(d.cv_url)).toEqual(bytes);
      const got = await download(app, org.key, d.id);
      expect(got.response.status).toBe(200);
      expect(got.response.headers.get("content-type")).toBe("application/pdf");
      expect(got.response.headers.get("content-disposition")).toBe('attachment; filename="cv.pdf"');
      expect(got.response.headers.get("cache-control")).toBe("private, no-store");
      expect(got.bytes).toEqual(bytes);
      expect(filesUnder(ctx.filesDir)).toEqual([]);
    });

    test("a CV of several MB comes back byte for byte", async () => {
      const big = new Uint8Array(7 * 1_048_576 + 13);
      for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
      big.set(new TextEncoder().encode("%PDF-1.7\n"));
      const d = (await create({ type: "candidate", name: "Big", cv: pdfFile(big) })).json.data;
      const got = await download(app, org.key, d.id);
      expect(got.bytes.length).toBe(big.length);
      expect(Buffer.compare(got.bytes, big)).toBe(0);
    });

    test("POST /dossiers/{id}/cv: a first CV, then a replacement; one object under the key, the last bytes", async () => {
      const d = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Grace" } })).json.data;
      expect((await download(app, org.key, d.id)).response.status).toBe(404);
      const first = pdf("first");
      const one = await call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: first, contentType: "application/pdf" });
      expect(one.status).toBe(200);
      expect(one.json.data.cv_url).toBe(cvUrl(org.id, d.id));
      const second = pdf("second, longer than the first");
      const two = await call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: form({ cv: pdfFile(second) }) });
      expect(two.status).toBe(200);
      expect((await download(app, org.key, d.id)).bytes).toEqual(second);
      expect((await objects()).filter((key) => key.includes(d.id))).toEqual([`${prefix}/${cvUrl(org.id, d.id)}`]);
    });

    test("a create whose unit of work fails after the upload (an unknown flow_id: 404) leaves no object and no row", async () => {
      const before = { rows: await rowCountsOf(app), objects: await objects() };
      const answer = await create({ type: "candidate", name: "No flow", flow_id: "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87", cv: pdfFile(pdf("x")) });
      expect([answer.status, answer.json.error.code]).toEqual([404, "not_found"]);
      expect(await rowCountsOf(app)).toEqual(before.rows);
      expect(await objects()).toEqual(before.objects);
    });

    test("a unit that fails after place() (as a failing COMMIT): a new dossier's object is deleted", async () => {
      const id = "1b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
      const staged = await ctx.files.stageCv(org.id, id, pdf("fresh"), true);
      expect(await objects()).toContain(`${prefix}/${cvUrl(org.id, id)}`); // put before the unit, under its final key
      await expect(
        ctx.store.write(async () => {
          await staged.place(await recordEvent(ctx, org.id, "dossier.created", { id }));
          throw new Error("commit failed");
        }),
      ).rejects.toThrow("commit failed");
      await staged.discard();
      expect(await objects()).not.toContain(`${prefix}/${cvUrl(org.id, id)}`);
    });

    test("a replacement whose unit fails after place(): the committed bytes are back; one whose unit committed keeps the new ones", async () => {
      const d = (await create({ type: "candidate", name: "Kept", cv: pdfFile(pdf("committed")) })).json.data;
      const staged = await ctx.files.stageCv(org.id, d.id, pdf("never committed"), false);
      expect(await stored(d.cv_url)).toEqual(pdf("committed")); // nothing written before the unit
      await expect(
        ctx.store.write(async () => {
          await staged.place(await recordEvent(ctx, org.id, "dossier.updated", { id: d.id }));
          expect(await stored(d.cv_url)).toEqual(pdf("never committed"));
          throw new Error("commit failed");
        }),
      ).rejects.toThrow("commit failed");
      await staged.discard();
      expect((await download(app, org.key, d.id)).bytes).toEqual(pdf("committed"));

      const again = await ctx.files.stageCv(org.id, d.id, pdf("committed again"), false);
      await ctx.store.write(async () => {
        await again.place(await recordEvent(ctx, org.id, "dossier.updated", { id: d.id }));
      });
      await again.discard(); // e.g. something after the commit threw: the event says it committed
      expect((await download(app, org.key, d.id)).bytes).toEqual(pdf("committed again"));
    });

    test("a first CV whose unit fails after place() leaves no object", async () => {
      const d = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "None yet" } })).json.data;
      const staged = await ctx.files.stageCv(org.id, d.id, pdf("never committed"), false);
      await expect(
        ctx.store.write(async () => {
          await staged.place(await recordEvent(ctx, org.id, "dossier.updated", { id: d.id }));
          throw new Error("commit failed");
        }),
      ).rejects.toThrow("commit failed");
      await staged.discard();
      expect((await objects()).filter((key) => key.includes(d.id))).toEqual([]);
    });

    test("email intake (C15) on S3: the message's CV is the dossier's object; a duplicate Message-ID leaves no object of its own", async () => {
      const flowId = (await call(app, "GET", "/flows", { key: org.key })).json.data.find((f: { type: string; is_default: boolean }) => f.type === "candidate" && f.is_default).id;
      const address = (await intakeAddress(ctx, org.id, flowId))!.address;
      const target = (await intakeTarget(ctx, address.slice(0, address.indexOf("@"))))!;
      const cv = pdf("by mail");
      const application = await readApplication(
        await compose({ from: '"Mae" <mae@example.com>', text: "CV attached", messageId: `<s3-${engine}@example.com>`, attachments: [{ filename: "cv.pdf", content: Buffer.from(cv), contentType: "application/pdf" }] }),
      );
      const first = await takeIn(ctx, target, application);
      const keysBefore = await objects();
      const again = await takeIn(ctx, target, application);
      expect(again).toEqual({ id: first.id, created: false });
      expect(await objects()).toEqual(keysBefore);
      expect(keysBefore).toContain(`${prefix}/${cvUrl(org.id, first.id)}`);
      expect((await download(app, org.key, first.id)).bytes).toEqual(cv);
    });

    test("the sweep removes CV objects an hour old that no committed row names, never one a row names, nor young ones or other keys", async () => {
      const named = (await create({ type: "candidate", name: "Named", cv: pdfFile(pdf("named")) })).json.data;
      const crashed = "2b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87"; // as a crash between the put and the commit leaves
      await bucket.write(`${prefix}/${cvUrl(org.id, crashed)}`, pdf("orphan"));
      await bucket.write(`${prefix}/README`, "the operator's note");
      await bucket.write(`${prefix}/${org.id}/dossiers/${crashed}/other.txt`, "not a CV");
      const now = new Date();
      // Young: it may be an upload whose unit has not committed yet, on any node.
      expect(await ctx.files.sweep(now)).toEqual({ temporary: 0, orphans: 0, restored: 0 });
      expect(await objects()).toContain(`${prefix}/${cvUrl(org.id, crashed)}`);
      const later = new Date(now.getTime() + SWEEP_AGE_MS + 60_000);
      const kept = (await objects()).filter((key) => !key.endsWith(`${crashed}/cv.pdf`));
      const swept = await ctx.files.sweep(later);
      expect(swept.orphans).toBeGreaterThanOrEqual(1);
      expect(await objects()).toEqual(kept);
      expect(await objects()).toContain(`${prefix}/${named.cv_url}`);
      expect((await download(app, org.key, named.id)).bytes).toEqual(pdf("named"));
    });

    test("the sweep runs in the job runner: at its first run, then not again before an hour of the runner's clock", async () => {
      let clock = Date.now() + 2 * HOUR;
      const timed = { ...ctx, now: () => new Date(clock) };
      const runner = new JobRunner(timed, [filesSweepJob(timed)]);
      const orphan = (n: number) => `${prefix}/${cvUrl(org.id, `3b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a8${n}`)}`;
      await bucket.write(orphan(1), pdf("orphan 1"));
      await runner.runDue();
      expect(await objects()).not.toContain(orphan(1));
      await bucket.write(orphan(2), pdf("orphan 2"));
      clock += 30 * 60_000; // half an hour later: not yet
      await runner.runDue();
      expect(await objects()).toContain(orphan(2));
      clock += 31 * 60_000; // more than an hour after the last sweep
      await runner.runDue();
      expect(await objects()).not.toContain(orphan(2));
      await runner.stop();
    });

    /** What a crash between the put of a replacement and its commit leaves: the committed bytes kept
     * aside under an event id the database does not have, the new ones under the key. */
    const crashed = async (d: { id: string; cv_url: string }, committed: Uint8Array, eventId: string) => {
      await bucket.write(`${prefix}/${org.id}/dossiers/${d.id}/.cv.pdf.${eventId}.old`, committed);
      await bucket.write(`${prefix}/${d.cv_url}`, pdf("never committed"));
    };
    const uncommittedId = (n: number) => `evt_${String(n).padStart(26, "9")}`; // beyond any recorded id
    const keysOf = async (id: string) => (await objects()).filter((key) => key.includes(id)).map((key) => key.slice(key.lastIndexOf("/") + 1));

    test("a replacement keeps the committed bytes aside only until its commit; the sweep puts back a copy a crash left and deletes one whose event is recorded", async () => {
      const d = (await create({ type: "candidate", name: "Crashed", cv: pdfFile(pdf("committed")) })).json.data;
      const replaced = await call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: pdf("second"), contentType: "application/pdf" });
      expect(replaced.status).toBe(200);
      expect(await keysOf(d.id)).toEqual(["cv.pdf"]); // the copy kept aside is gone before the answer
      await crashed(d, pdf("second"), uncommittedId(1));
      // A copy whose replacement did commit (its delete failed): garbage.
      const recorded = await ctx.store.write(() => recordEvent(ctx, org.id, "dossier.updated", { id: d.id }));
      await bucket.write(`${prefix}/${org.id}/dossiers/${d.id}/.cv.pdf.${recorded}.old`, pdf("older"));
      const swept = await ctx.files.sweep(new Date());
      expect(swept).toMatchObject({ restored: 1, temporary: 1 });
      expect(await keysOf(d.id)).toEqual(["cv.pdf"]);
      expect((await download(app, org.key, d.id)).bytes).toEqual(pdf("second"));
    });

    test("a replacement that finds a copy a crash left takes it as the bytes it replaces: a failed unit puts those back", async () => {
      const d = (await create({ type: "candidate", name: "Crashed twice", cv: pdfFile(pdf("committed")) })).json.data;
      await crashed(d, pdf("committed"), uncommittedId(2));
      const staged = await ctx.files.stageCv(org.id, d.id, pdf("third"), false);
      await expect(
        ctx.store.write(async () => {
          await staged.place(await recordEvent(ctx, org.id, "dossier.updated", { id: d.id }));
          throw new Error("commit failed");
        }),
      ).rejects.toThrow("commit failed");
      await staged.discard();
      expect((await download(app, org.key, d.id)).bytes).toEqual(pdf("committed"));
      expect(await keysOf(d.id)).toEqual(["cv.pdf"]);
    });
  });
}

for (const engine of ENGINES) {
  describe(`S3 down (C9, C19), ${engine} store: an upload that fails answers 503 storage_unavailable and nothing persists`, async () => {
    const down = await startS3();
    const app = await appOn(engine, { env: down.env("cvs") });
    const org = await makeOrg(app);
    const d = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Before" } })).json.data;
    const withCv = (await call(app, "POST", "/dossiers", { key: org.key, raw: form({ type: "candidate", name: "With CV", cv: pdfFile(pdf("kept")) }) })).json.data;
    await down.stop();

    test("POST /dossiers with a CV: 503, no row", async () => {
      const before = await rowCountsOf(app);
      const answer = await call(app, "POST", "/dossiers", { key: org.key, raw: form({ type: "candidate", name: "A", cv: pdfFile(pdf("a")) }) });
      expect([answer.status, answer.json.error.code]).toEqual([503, "storage_unavailable"]);
      expect(answer.json.error.message).toContain("file store");
      expect(await rowCountsOf(app)).toEqual(before);
    });

    test("POST /dossiers/{id}/cv: 503, the dossier unchanged; a dossier without a CV is still made", async () => {
      const before = await rowCountsOf(app);
      const answer = await call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: pdf("b"), contentType: "application/pdf" });
      expect([answer.status, answer.json.error.code]).toEqual([503, "storage_unavailable"]);
      expect(await rowCountsOf(app)).toEqual(before);
      expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data).toEqual(d);
      expect((await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Fine" } })).status).toBe(201);
      expect((await call(app, "GET", `/dossiers/${d.id}/cv`, { key: org.key })).status).toBe(404); // no cv_url: no S3 call
    });

    test("GET /dossiers/{id}/cv of a dossier whose CV is in the bucket: 503 storage_unavailable, as documented", async () => {
      const answer = await call(app, "GET", `/dossiers/${withCv.id}/cv`, { key: org.key });
      expect([answer.status, answer.json.error.code]).toEqual([503, "storage_unavailable"]);
      expect(answer.json.error.message).toContain("file store");
    });
  });
}

describe("an S3 endpoint that never answers: 503 after the time limit, the writer held no longer than that", async () => {
  // Takes connections and never answers a byte.
  const hung = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  onCleanup(() => hung.stop(true));
  const app = await appOn("sqlite", { env: { ...s3.env("hung"), DOSSIER_S3_ENDPOINT: `http://127.0.0.1:${hung.port}` }, config: { filesTimeoutMs: 300 } });
  const org = await makeOrg(app);
  const d = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Waiting" } })).json.data;

  test("a CV put inside the unit (POST /dossiers/{id}/cv) gives up with 503; a write sent beside it commits after it; nothing of the upload is kept", async () => {
    const before = await rowCountsOf(app);
    const [upload, other] = await Promise.all([
      call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: pdf("hung"), contentType: "application/pdf" }),
      Bun.sleep(20).then(() => call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Beside" } })),
    ]);
    expect([upload.status, upload.json.error.code]).toEqual([503, "storage_unavailable"]);
    expect(other.status).toBe(201);
    const after = await rowCountsOf(app);
    expect(after.dossiers).toBe(before.dossiers + 1);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data).toEqual(d);
  });

  test("a create with a CV gives up with 503 and keeps no row", async () => {
    const before = await rowCountsOf(app);
    const answer = await call(app, "POST", "/dossiers", { key: org.key, raw: form({ type: "candidate", name: "A", cv: pdfFile(pdf("a")) }) });
    expect([answer.status, answer.json.error.code]).toEqual([503, "storage_unavailable"]);
    expect(await rowCountsOf(app)).toEqual(before);
  });
});
