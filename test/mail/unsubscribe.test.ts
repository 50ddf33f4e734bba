// C22: the List-Unsubscribe link's token says whose digest to turn off and cannot be made without the key.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readUnsubscribeToken, unsubscribeToken, unsubscribeUrl } from "../../src/mail/unsubscribe";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const KEY = Buffer.alloc(32, 7);
const OTHER = Buffer.alloc(32, 8);
const MEMBER = "0193b7e2-8c1a-7d3e-9f00-123456789abc";

test("a token reads back as its member under the same key, and as nothing under another", () => {
  const token = unsubscribeToken(MEMBER, KEY);
  expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  expect(unsubscribeToken(MEMBER, KEY)).toBe(token); // stable: every message carries the same link
  expect(readUnsubscribeToken(token, KEY)).toBe(MEMBER);
  expect(readUnsubscribeToken(token, OTHER)).toBeNull();
});

test("altered, swapped or malformed tokens are refused", () => {
  const token = unsubscribeToken(MEMBER, KEY);
  const [id, mac] = token.split(".");
  const other = unsubscribeToken("another-member", KEY);
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
  for (const bad of [
    `${id}.${flip(mac, 3)}`,
    `${flip(id, 2)}.${mac}`,
    `${other.split(".")[0]}.${mac}`,
    `${id}.${mac}x`,
    `${id}.${mac.slice(1)}`,
    `${id}${mac}`,
    "",
    ".",
    `${id}.${mac}.`,
    `${id}=.${mac}`,
    "x".repeat(1000),
  ]) {
    expect(readUnsubscribeToken(bad, KEY)).toBeNull();
  }
});

test("the URL, and a key too short to be one", () => {
  expect(unsubscribeUrl("https://dossier.example.com/", MEMBER, KEY)).toBe(`https://dossier.example.com/unsubscribe/${unsubscribeToken(MEMBER, KEY)}`);
  expect(() => unsubscribeToken(MEMBER, Buffer.alloc(8))).toThrow(/16 bytes/);
});
