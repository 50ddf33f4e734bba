// JSON answers over 1 KiB are gzip-compressed for clients that accept it (the console's first load,
// C14), decoded to the very same JSON; answers with an ETag, small ones and those to clients that
// refuse gzip go as they are. A real server on 127.0.0.1: the compression is the transport's.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startServer } from "../../src/server";
import { makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: false, config: { log: "off" } });
afterAll(() => server.stop());
const org = await makeOrg(server.app);

/** The raw answer, its body as sent on the wire (not decoded). */
async function raw(path: string, acceptEncoding: string | null) {
  const headers: Record<string, string> = { authorization: `Bearer ${org.key}` };
  if (acceptEncoding !== null) headers["accept-encoding"] = acceptEncoding;
  const answer = await fetch(`${server.url}/api/v1${path}`, { headers, decompress: false });
  return { status: answer.status, headers: answer.headers, bytes: new Uint8Array(await answer.arrayBuffer()) };
}

const ready = await (async () => {
  for (let i = 0; i < 20; i++) {
    const made = await fetch(`${server.url}/api/v1/dossiers`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "candidate", name: `Compressed ${i}`, email: `c${i}@example.com`, company: "Zipper Ltd" }),
    });
    expect(made.status).toBe(201);
  }
  // One dossier whose answer is over 1 KiB, so that only its ETag keeps it uncompressed.
  const large = await fetch(`${server.url}/api/v1/dossiers`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "candidate", name: "Large", intake_notes: "A long letter. ".repeat(200) }),
  });
  expect(large.status).toBe(201);
  return ((await large.json()) as any).data.id as string;
})();

describe("gzip for large JSON answers", () => {
  test("a list of 20 dossiers asked with gzip comes compressed, and decodes to the same JSON as the plain answer", async () => {
    await ready;
    const zipped = await raw("/dossiers?per_page=20", "gzip, deflate, br");
    const plain = await raw("/dossiers?per_page=20", null);
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toContain("Accept-Encoding");
    expect(Number(zipped.headers.get("content-length"))).toBe(zipped.bytes.byteLength);
    expect(plain.headers.get("content-encoding")).toBeNull();
    // A client that accepts no gzip gets the answer untouched (no Vary: only a gzip answer needs it).
    expect(plain.headers.get("vary")).toBeNull();
    expect(plain.bytes.byteLength).toBeGreaterThan(1024);
    expect(zipped.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 3);
    expect(JSON.parse(new TextDecoder().decode(Bun.gunzipSync(zipped.bytes)))).toEqual(JSON.parse(new TextDecoder().decode(plain.bytes)));
  });

  const unchanged: [string, () => Promise<string>, string | null][] = [
    ["gzip refused with q=0", async () => "/dossiers?per_page=20", "gzip;q=0, br"],
    ["no Accept-Encoding", async () => "/dossiers?per_page=20", null],
    ["one dossier (it carries an ETag)", async () => `/dossiers/${await ready}`, "gzip"],
    ["a small answer (a 404)", async () => "/dossiers/00000000-0000-4000-8000-000000000000", "gzip"],
  ];
  test.each(unchanged)("sent as it is: %s", async (_name, path, accept) => {
    const answer = await raw(await path(), accept);
    expect(answer.headers.get("content-encoding")).toBeNull();
    if (answer.headers.has("etag")) expect(answer.bytes.byteLength).toBeGreaterThan(1024);
    expect(JSON.parse(new TextDecoder().decode(answer.bytes))).toBeObject();
  });
});
