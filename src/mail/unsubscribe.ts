// The token of a message's unsubscribe link (C22: every email has a `List-Unsubscribe` link that turns
// the digest off). RFC 8058's one-click unsubscribe is a POST from the mail provider with no cookie
// and no key, so the URL itself must say whose digest to turn off, and must not be guessable: an
// HMAC-SHA256 of the member's id under a key of the server's (derive it from master.key), cut to
// 128 bits. Nothing is stored; the link stays valid as long as the key, and all it can do is turn a
// digest off. Pure: the key is an argument.
import { createHmac, timingSafeEqual } from "node:crypto";

const PURPOSE = "dossier:digest-unsubscribe:v1";
const MAC_BYTES = 16;

function mac(memberId: string, key: Uint8Array): Buffer {
  return createHmac("sha256", key).update(`${PURPOSE}\n${memberId}`).digest().subarray(0, MAC_BYTES);
}

/** `<member id, base64url>.<mac, base64url>`: URL-safe, no padding. */
export function unsubscribeToken(memberId: string, key: Uint8Array): string {
  if (key.length < 16) throw new Error("the unsubscribe key must have at least 16 bytes");
  return `${Buffer.from(memberId, "utf8").toString("base64url")}.${mac(memberId, key).toString("base64url")}`;
}

/** The member id a token was made for, or null for anything else (malformed, another key, altered). */
export function readUnsubscribeToken(token: string, key: Uint8Array): string | null {
  if (typeof token !== "string" || token.length > 400) return null;
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const memberId = Buffer.from(match[1], "base64url").toString("utf8");
  if (Buffer.from(memberId, "utf8").toString("base64url") !== match[1]) return null; // not canonical
  const given = Buffer.from(match[2], "base64url");
  const expected = mac(memberId, key);
  return given.length === expected.length && timingSafeEqual(given, expected) ? memberId : null;
}

/** The link: `<base>/unsubscribe/<token>` (the route that takes RFC 8058's POST and shows a page on GET
 * is the wiring's). */
export function unsubscribeUrl(base: string, memberId: string, key: Uint8Array): string {
  return `${base.replace(/\/+$/, "")}/unsubscribe/${unsubscribeToken(memberId, key)}`;
}
