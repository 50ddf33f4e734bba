// What src/http/one-write.ts leaves as it is: an answer whose length its route told (a remembered
// record's, src/http/route.ts) and that fits the cork buffer is not read again to learn it; the
// length told is the body's, in bytes, whatever its characters.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { inOneWrite } from "../../src/http/one-write";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const json = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "content-type": "application/json;charset=utf-8", ...headers } });
const get = new Request("http://127.0.0.1/api/v1/dossiers/x");

describe("inOneWrite", () => {
  test("a JSON answer whose length was told, within the cork buffer: the same answer", async () => {
    const answer = json('{"data":{}}', { "content-length": "11" });
    expect(await inOneWrite(get, answer)).toBe(answer);
  });

  test("one whose length was not told is read, and answered again with the same bytes", async () => {
    const answer = json('{"data":{"name":"Zoé"}}');
    const again = await inOneWrite(get, answer);
    expect(again).not.toBe(answer);
    expect(await again.text()).toBe('{"data":{"name":"Zoé"}}');
  });

  test("one told longer than the cork buffer goes through a stream whole", async () => {
    const body = JSON.stringify({ data: { notes: "x".repeat(20_000) } });
    const again = await inOneWrite(get, json(body, { "content-length": String(body.length) }));
    expect(await again.text()).toBe(body);
  });
});

describe.each(ENGINES)("a remembered record's answer on %s", (engine) => {
  test("tells its length in bytes, accents, emoji and CJK included, read after read", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);
    const name = "Zoé Ñúñez 🚀 数据";
    const made = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name } });
    for (let read = 0; read < 3; read++) {
      const got = await call(app, "GET", `/dossiers/${made.json.data.id}`, { key: org.key });
      expect(got.json.data.name).toBe(name);
      expect(Number(got.headers.get("content-length"))).toBe(Buffer.byteLength(got.text));
    }
  });
});
