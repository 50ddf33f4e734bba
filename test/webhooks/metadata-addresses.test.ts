// C20 "Webhook URLs": the cloud metadata addresses outside the link-local ranges, AWS's
// `fd00:ec2::254` and Alibaba Cloud's `100.100.100.200`, are refused in every spelling, at
// `PUT /webhook-endpoint` (400 invalid_body) and again when connecting (the attempt fails as a
// network error), whatever DOSSIER_WEBHOOK_ALLOW_PRIVATE says. One row per spelling.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { LookupAddress } from "node:dns";
import { getDelivery } from "../../src/services/deliveries";
import { recordEvent } from "../../src/services/outbox";
import { setEndpoint } from "../../src/services/webhooks";
import { sendAttempt, type Resolve } from "../../src/webhooks/send";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg, until, type Org } from "../helpers";
import { refused, scenarios } from "../helpers/scenario";
import { ENGINES, appOn } from "../helpers/stores";
import { webhookReceiver } from "../helpers/webhooks";

setDefaultTimeout(120_000);

/** Every spelling of the two addresses a URL can carry (the URL parser reads them all as the address). */
const SPELLINGS: { name: string; url: string }[] = [
  { name: "Alibaba, dotted", url: "http://100.100.100.200/latest/meta-data/" },
  { name: "Alibaba, one decimal number", url: "http://1684301000/" },
  { name: "Alibaba, hexadecimal parts", url: "http://0x64.0x64.0x64.0xc8/" },
  { name: "Alibaba, one hexadecimal number", url: "http://0x646464c8/" },
  { name: "Alibaba, octal parts", url: "http://0144.0144.0144.0310/" },
  { name: "Alibaba, zero-padded octal", url: "http://00000144.100.100.200/" },
  { name: "Alibaba, three parts (a.b.c16)", url: "http://100.100.25800/" },
  { name: "Alibaba, two parts (a.b24)", url: "http://100.6579400/" },
  { name: "Alibaba, with a port and a trailing dot", url: "http://100.100.100.200.:8080/" },
  { name: "Alibaba, IPv4-mapped IPv6, dotted", url: "http://[::ffff:100.100.100.200]/" },
  { name: "Alibaba, IPv4-mapped IPv6, hexadecimal", url: "http://[::ffff:6464:64c8]/" },
  { name: "Alibaba, IPv4-mapped IPv6, expanded", url: "http://[0:0:0:0:0:ffff:6464:64c8]/" },
  { name: "Alibaba, IPv4-compatible IPv6", url: "http://[::100.100.100.200]/" },
  { name: "Alibaba, NAT64 IPv6", url: "http://[64:ff9b::100.100.100.200]/" },
  { name: "Alibaba over https", url: "https://100.100.100.200/" },
  { name: "AWS IPv6, compressed", url: "http://[fd00:ec2::254]/latest/meta-data/" },
  { name: "AWS IPv6, expanded", url: "http://[fd00:ec2:0:0:0:0:0:254]/" },
  { name: "AWS IPv6, upper case and zero-padded", url: "http://[FD00:EC2::0254]/" },
  { name: "AWS IPv6, every group padded", url: "http://[fd00:0ec2:0000:0000:0000:0000:0000:0254]/" },
  { name: "AWS IPv6, with a port", url: "http://[fd00:ec2::254]:80/" },
  { name: "AWS IPv6 over https", url: "https://[fd00:ec2::254]/" },
];

/** Neighbours of the two addresses: ordinary private addresses, taken under the default
 * DOSSIER_WEBHOOK_ALLOW_PRIVATE=1 (the refusal is of the addresses, not of their ranges). */
const NEIGHBOURS = ["http://100.100.100.201/", "http://1684366536/" /* 100.101.100.200 */, "http://[fd00:ec2::253]/", "http://[fd00:ec2::1:254]/"];

scenarios(
  "PUT /webhook-endpoint refuses the cloud metadata addresses in every spelling (C20)",
  async () => ({}),
  [
    ...SPELLINGS.map(({ name, url }) => ({
      name: `C20: ${name} (${url}) is 400 invalid_body`,
      method: "PUT" as const,
      path: "/webhook-endpoint",
      body: { url },
      status: 400,
      json: refused("invalid_body", "cloud metadata address"),
    })),
    ...NEIGHBOURS.map((url) => ({
      name: `C20: a neighbour, ${url}, is an ordinary private address: taken by default`,
      method: "PUT" as const,
      path: "/webhook-endpoint",
      body: { url },
      status: 200,
      json: { data: { url, enabled: true } },
    })),
  ],
);

describe.each(ENGINES)("on %s", (engine) => {
  describe("C20: with DOSSIER_WEBHOOK_ALLOW_PRIVATE=0 they are refused as metadata, not only as private", async () => {
    const app = await appOn(engine, { env: { DOSSIER_WEBHOOK_ALLOW_PRIVATE: "0" } });
    const org = await makeOrg(app);
    for (const url of ["http://100.100.100.200/", "http://[fd00:ec2::254]/"]) {
      test(`PUT ${url} is 400 naming the metadata address`, async () => {
        const answer = await call(app, "PUT", "/webhook-endpoint", { key: org.key, body: { url } });
        expect(answer.status).toBe(400);
        expect(answer.json.error).toMatchObject({ code: "invalid_body", message: expect.stringContaining("cloud metadata address") });
      });
    }
  });

  describe("C20: set by the operator (no check at set), each spelling fails when connecting, as a network error", () => {
    // One organization per spelling in one app with its dispatcher; no retries, so each delivery
    // is `failed` after its first attempt.
    let app: DossierApp<Store>;
    const rows: ((typeof SPELLINGS)[number] & { org: Org; eventId: string })[] = [];
    beforeAll(async () => {
      app = await appOn(engine, { webhooks: true, config: { webhookRetrySchedule: [], webhookTimeoutMs: 2000 } });
      for (const spelling of SPELLINGS) rows.push({ ...spelling, org: await makeOrg(app), eventId: "" });
    });

    test("every delivery is attempted, and every attempt fails with no status and no answer, naming the metadata address", async () => {
      for (const row of rows) {
        await setEndpoint(app.dossier, row.org.id, row.url);
        row.eventId = await app.dossier.store.write(() => recordEvent(app.dossier, row.org.id, "dossier.created", { id: crypto.randomUUID() }));
      }
      await until(async () => {
        for (const row of rows) if ((await getDelivery(app.dossier, row.org.id, row.eventId)).status !== "failed") return false;
        return true;
      }, 20_000, "every delivery to fail");
      const attempts = await Promise.all(rows.map(async (row) => ({ url: row.url, attempts: (await getDelivery(app.dossier, row.org.id, row.eventId)).attempt_log })));
      expect(attempts).toEqual(
        rows.map((row) => ({
          url: row.url,
          attempts: [expect.objectContaining({ status_code: null, error: expect.stringContaining("cloud metadata address"), response_snippet: null })],
        })),
      );
    });
  });
});

describe("C20: a name that resolves to a metadata address fails when connecting (DNS may change)", () => {
  const receiver = webhookReceiver();
  const now = () => new Date();
  const v4 = (address: string): LookupAddress => ({ address, family: 4 });
  const v6 = (address: string): LookupAddress => ({ address, family: 6 });
  /** A resolver for the test's own names; every other name is unknown. */
  const names: Record<string, LookupAddress[]> = {
    "alibaba-metadata.test": [v4("100.100.100.200")],
    "aws-metadata.test": [v6("fd00:ec2::254")],
    "aws-metadata-expanded.test": [v6("fd00:ec2:0:0:0:0:0:254")],
    "mapped-metadata.test": [v6("::ffff:100.100.100.200")],
    "mapped-hex-metadata.test": [v6("::ffff:6464:64c8")],
    "one-of-two.test": [v4("93.184.215.14"), v4("100.100.100.200")],
    "receiver.test": [v4("127.0.0.1")],
  };
  const resolve: Resolve = async (hostname) => {
    const found = names[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return found;
  };

  for (const name of Object.keys(names).filter((n) => n !== "receiver.test")) {
    for (const allowPrivate of [true, false]) {
      test(`http://${name}/ (${names[name].map((a) => a.address).join(", ")}), private addresses ${allowPrivate ? "allowed" : "refused"}: no request, a network error`, async () => {
        const result = await sendAttempt(`http://${name}:${new URL(receiver.url).port}/hook`, "{}", {}, 2000, now, allowPrivate, resolve);
        expect(result).toMatchObject({ statusCode: null, responseSnippet: null, error: expect.stringContaining("cloud metadata address") });
        expect(receiver.received).toEqual([]);
      });
    }
  }

  test("the same resolver's name for the receiver is sent to it: the connection uses the resolver that was checked", async () => {
    const result = await sendAttempt(`http://receiver.test:${new URL(receiver.url).port}/hook`, "sent", {}, 2000, now, true, resolve);
    expect(result.statusCode).toBe(200);
    expect(receiver.received.map((r) => r.body)).toEqual(["sent"]);
  });
});
