// CV uploads through a real server on 127.0.0.1 (C5, C8): a 10 MB PDF, multipart and raw, and a
// chunked body with no Content-Length that passes 10 MB (413 while streaming).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startServer } from "../../src/server";
import { makeOrg, tempDir } from "../helpers";
import { ENGINES, migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MB10 = 10_485_760;

describe.each(ENGINES)("CV uploads over HTTP on %s", async (engine) => {
  const env = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
  const server = await startServer({ dataDir: tempDir(), port: 0, webhooks: false, env, config: { log: "off" } });
  afterAll(() => server.stop());
  const org = await makeOrg(server.app);
  const auth = { authorization: `Bearer ${org.key}` };
  const big = new Uint8Array(MB10);
  big.set(new TextEncoder().encode("%PDF-1.7\n"));
  for (let i = 9; i < big.length; i += 4096) big[i] = i % 251;

  test("a 10 MB PDF as multipart create, then as raw upload, round-trips byte for byte", async () => {
    const form = new FormData();
    form.set("type", "candidate");
    form.set("name", "Big CV");
    form.set("cv", new File([big], "cv.pdf", { type: "application/pdf" }));
    const created = await fetch(`${server.url}/api/v1/dossiers`, { method: "POST", headers: auth, body: form });
    expect(created.status).toBe(201);
    const dossier = ((await created.json()) as any).data;
    const back = await fetch(`${server.url}/api/v1/dossiers/${dossier.id}/cv`, { headers: auth });
    expect(back.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(big);

    const raw = await fetch(`${server.url}/api/v1/dossiers/${dossier.id}/cv`, {
      method: "POST", headers: { ...auth, "content-type": "application/pdf" }, body: big,
    });
    expect(raw.status).toBe(200);
  });

  test("C8: a chunked raw body passing 10 MB is refused with 413 file_too_large", async () => {
    const created = await fetch(`${server.url}/api/v1/dossiers`, {
      method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ type: "candidate", name: "Chunked" }),
    });
    const dossier = ((await created.json()) as any).data;
    let sent = 0;
    const chunk = new Uint8Array(1 << 20);
    chunk.set(new TextEncoder().encode("%PDF-1.7\n"));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= MB10 + (1 << 20)) return controller.close();
        controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const answer = await fetch(`${server.url}/api/v1/dossiers/${dossier.id}/cv`, {
      method: "POST", headers: { ...auth, "content-type": "application/pdf" }, body, duplex: "half",
    } as RequestInit);
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as any).error.code).toBe("file_too_large");
    const after = await fetch(`${server.url}/api/v1/dossiers/${dossier.id}`, { headers: auth });
    expect(((await after.json()) as any).data.cv_url).toBeNull();
  });
});
