// docs/embedding.md's example: Dossier inside another project's `bun test`, without a port.
// `npm test` runs this file with the rest of the suite, so the example stays true.
import { afterAll, expect, test } from "bun:test";
import { createApp } from "../../src/app"; // in your project: from "dossier/src/app"
import { createKey } from "../../src/services/keys";
import { createOrg } from "../../src/services/orgs";

const app = createApp({ memory: true, config: { log: "off" } });
afterAll(() => app.close());

const org = await createOrg(app.dossier, { name: "Test org" });
const { key } = await createKey(app.dossier, { organizationId: org.id, scopes: ["flows:read"] });

test("my integration lists the default flows", async () => {
  const response = await app.handle(
    new Request("http://localhost/api/v1/flows", { headers: { authorization: `Bearer ${key}` } }),
  );
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { name: string }[] };
  expect(body.data.map((flow) => flow.name)).toEqual(["Recruitment", "Sales"]);
});
