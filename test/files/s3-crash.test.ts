// C5, C19 through a real crash: a `dossier serve` process with its CVs on S3 (a real s3rver, reached
// through a proxy of this test) is killed with SIGKILL the moment the bucket has taken the PUT of a
// replacement CV, before its unit of work can commit. The committed bytes were kept aside first
// (`.cv.pdf.<event id>.old`, as on disk): after a restart on the same data folder, the sweep at
// start finds that the event is not recorded and puts them back. The dossier names its CV, the
// object holds the committed bytes, no copy is left aside, and no event records the replacement.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { bootstrapKey, startServerProcess, type ServerProcess } from "../helpers/process";
import { onCleanup, tempDir, until } from "../helpers";
import { keysUnder, startS3 } from "../helpers/s3";
import { ENGINES, migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const s3 = await startS3();
const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7\n${text}\n%%EOF\n`);

for (const engine of ENGINES) describe(`a node killed between the put of a replacement CV and its commit (S3), ${engine} store`, () => {
  test("after a restart the committed CV is back under the key the row names, nothing kept aside, no event of the replacement", async () => {
    // Forwards every request to s3rver as it came (the Host header too: it is signed); once armed,
    // kills the server when s3rver has answered the PUT of a cv.pdf, before the server hears back.
    let victim: ServerProcess | null = null;
    let armed = false;
    let killedAt: string | null = null;
    const proxy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const url = new URL(request.url);
        const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
        const answer = await fetch(`${s3.endpoint}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, redirect: "manual" });
        const bytes = await answer.arrayBuffer();
        if (armed && request.method === "PUT" && url.pathname.endsWith("/cv.pdf") && answer.status === 200 && victim) {
          armed = false;
          killedAt = url.pathname;
          victim.proc.kill(9);
          await victim.exited;
        }
        return new Response(request.method === "HEAD" ? null : bytes, { status: answer.status, headers: answer.headers });
      },
    });
    onCleanup(() => proxy.stop(true));

    const data = tempDir();
    const database: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
    const env = { ...s3.env(`crash-${engine}`), ...database, DOSSIER_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` };
    victim = await startServerProcess(data, [], env);
    const key = bootstrapKey(victim);
    const auth = { authorization: `Bearer ${key}` };
    const form = new FormData();
    form.set("type", "candidate");
    form.set("name", "Ada");
    form.set("cv", new File([pdf("committed")], "cv.pdf", { type: "application/pdf" }));
    const made = await fetch(`${victim.url}/api/v1/dossiers`, { method: "POST", headers: auth, body: form });
    expect(made.status).toBe(201);
    const dossier = ((await made.json()) as { data: { id: string; cv_url: string } }).data;

    armed = true;
    const replaced = await fetch(`${victim.url}/api/v1/dossiers/${dossier.id}/cv`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/pdf" },
      body: pdf("never committed"),
    }).catch((error: Error) => error);
    expect(replaced).toBeInstanceOf(Error); // the server died before it could answer
    expect(killedAt).toEndWith(`/crash-${engine}/${dossier.cv_url}`);

    const bucket = s3.client();
    const dossierKeys = async () => (await keysUnder(bucket, `crash-${engine}/${dossier.cv_url.slice(0, -"cv.pdf".length)}`)).map((k) => k.slice(k.lastIndexOf("/") + 1));
    expect((await dossierKeys()).filter((name) => name.endsWith(".old"))).toHaveLength(1); // what the crash left aside

    const after = await startServerProcess(data, ["--no-bootstrap"], env);
    try {
      const row = (await (await fetch(`${after.url}/api/v1/dossiers/${dossier.id}`, { headers: auth })).json()) as { data: { cv_url: string } };
      expect(row.data.cv_url).toBe(dossier.cv_url);
      // The sweep at start (the job runner's first run) puts the committed bytes back.
      await until(async () => (await dossierKeys()).join() === "cv.pdf", 60_000, "the copy kept aside to be put back");
      const cv = await fetch(`${after.url}/api/v1/dossiers/${dossier.id}/cv`, { headers: auth });
      expect(cv.status).toBe(200); // C19: the object the row names is there
      expect(new Uint8Array(await cv.arrayBuffer())).toEqual(pdf("committed"));
      const events = (await (await fetch(`${after.url}/api/v1/events?per_page=100`, { headers: auth })).json()) as { data: { type: string }[] };
      expect(events.data.map((event) => event.type).filter((type) => type.startsWith("dossier."))).toEqual(["dossier.created"]);
    } finally {
      after.proc.kill("SIGTERM");
      await after.exited;
    }
  });
});
