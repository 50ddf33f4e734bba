// What src/http/one-write.ts leaves as it is: an answer whose length its route told (a remembered
// record's, src/http/route.ts) and that fits the cork buffer is not read again to learn it; the
// length told is the body's, in bytes, whatever its characters; an answer whose route kept its bytes
// (a remembered page of dossiers) is written from them.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { inOneWrite, sendsKept, type KeptAnswer } from "../../src/http/one-write";
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

  test("one whose route kept its bytes is written from them, not read out of the Response", async () => {
    const body = JSON.stringify({ data: [{ notes: "é".repeat(10_000) }] });
    const kept: KeptAnswer = { text: body, length: Buffer.byteLength(body) };
    for (let send = 0; send < 2; send++) {
      const request = new Request("http://127.0.0.1/api/v1/dossiers");
      sendsKept(request, kept);
      const answer = json(body, { "content-length": String(kept.length) });
      const again = await inOneWrite(request, answer);
      expect(await again.text()).toBe(body);
      expect(answer.bodyUsed).toBe(false);
    }
    expect(Buffer.from(body).equals(Buffer.from(kept.bytes!))).toBe(true); // encoded once, kept
  });

  test("the kept bytes are not sent for an answer of another length (one made since, an error)", async () => {
    const request = new Request("http://127.0.0.1/api/v1/dossiers");
    sendsKept(request, { text: "x".repeat(20_000), length: 20_000 });
    const other = JSON.stringify({ data: "y".repeat(19_000) });
    const answer = json(other, { "content-length": String(other.length) });
    expect(await (await inOneWrite(request, answer)).text()).toBe(other);
    expect(answer.bodyUsed).toBe(true);
  });
});

describe.each(ENGINES)("a remembered page of dossiers on %s", (engine) => {
  test("tells its length in bytes and gives the same page, read after read; so does a long record", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);
    const notes = "Zoé Ñúñez 🚀 数据 ".repeat(900);
    for (let i = 0; i < 3; i++) await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: `Zoé ${i}`, intake_notes: notes } });
    const first = await call(app, "GET", "/dossiers", { key: org.key });
    expect(first.json.data.map((d: { name: string }) => d.name)).toEqual(["Zoé 2", "Zoé 1", "Zoé 0"]);
    for (let read = 0; read < 3; read++) {
      const got = await call(app, "GET", "/dossiers", { key: org.key });
      expect(got.text).toBe(first.text);
      expect(Number(got.headers.get("content-length"))).toBe(Buffer.byteLength(got.text));
      expect(got.json.data[1].intake_notes).toBe(notes);
    }
    const id = first.json.data[0].id;
    const record = await call(app, "GET", `/dossiers/${id}`, { key: org.key });
    for (let read = 0; read < 2; read++) expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).text).toBe(record.text);
    expect(record.json.data.intake_notes).toBe(notes);
    expect(Number(record.headers.get("content-length"))).toBe(Buffer.byteLength(record.text));
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
