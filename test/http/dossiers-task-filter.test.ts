// GET /dossiers?task_assigned_to=<member>: the dossiers with an open task (C22) assigned to that
// member, the board's "My open tasks" filter (issue 39). Done tasks, other members' tasks and other
// organizations' tasks do not count; the answer follows the tasks at once, never a remembered page.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg, type Org } from "../helpers";
import { ENGINES, sharedApp } from "../helpers/stores";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("on %s", (engine) => {
  async function member(app: DossierApp<Store>, org: Org, name: string): Promise<string> {
    const made = await call(app, "POST", "/members", { key: org.key, body: { email: `${name}@example.com`, name, role: "member" } });
    expect(made.status).toBe(201);
    return made.json.data.id as string;
  }
  async function dossier(app: DossierApp<Store>, org: Org, name: string): Promise<string> {
    return (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name } })).json.data.id as string;
  }
  async function task(app: DossierApp<Store>, org: Org, dossierId: string | null, assignee: string): Promise<string> {
    const made = await call(app, "POST", "/tasks", { key: org.key, body: { title: "Call back", dossier_id: dossierId, assigned_to: assignee } });
    expect(made.status).toBe(201);
    return made.json.data.id as string;
  }
  const listed = async (app: DossierApp<Store>, org: Org, query: string) => {
    const answer = await call(app, "GET", `/dossiers?${query}`, { key: org.key });
    expect(answer.status).toBe(200);
    return { ids: (answer.json.data as { id: string }[]).map((d) => d.id).sort(), total: answer.json.meta.total as number };
  };

  test("only dossiers with an open task of that member, in this organization; the list follows the tasks at once", async () => {
    const app = await sharedApp(engine);
    const org = await makeOrg(app);
    const [ada, bob] = [await member(app, org, "ada"), await member(app, org, "bob")];
    const [withAda, withDone, withBob, without] = [
      await dossier(app, org, "Open task for Ada"),
      await dossier(app, org, "Done task for Ada"),
      await dossier(app, org, "Open task for Bob"),
      await dossier(app, org, "No task"),
    ];
    await task(app, org, withAda, ada);
    await task(app, org, withAda, ada); // two tasks: the dossier once
    const done = await task(app, org, withDone, ada);
    expect((await call(app, "PATCH", `/tasks/${done}`, { key: org.key, body: { status: "done" } })).status).toBe(200);
    await task(app, org, withBob, bob);
    await task(app, org, null, ada); // a task of no dossier
    void without;

    expect(await listed(app, org, `task_assigned_to=${ada}`)).toEqual({ ids: [withAda], total: 1 });
    expect(await listed(app, org, `task_assigned_to=${bob}&type=candidate`)).toEqual({ ids: [withBob], total: 1 });
    expect(await listed(app, org, `task_assigned_to=${bob}&type=sales`)).toEqual({ ids: [], total: 0 });
    expect(await listed(app, org, `task_assigned_to=${crypto.randomUUID()}`)).toEqual({ ids: [], total: 0 });

    // A task made open again, or a new one, shows at the next read: no page is remembered for it.
    expect((await call(app, "PATCH", `/tasks/${done}`, { key: org.key, body: { status: "open" } })).status).toBe(200);
    expect(await listed(app, org, `task_assigned_to=${ada}`)).toEqual({ ids: [withAda, withDone].sort(), total: 2 });

    // Another organization's member's tasks never show here, and its list does not see these.
    const other = await makeOrg(app);
    const carol = await member(app, other, "carol");
    await task(app, other, await dossier(app, other, "Elsewhere"), carol);
    expect(await listed(app, org, `task_assigned_to=${carol}`)).toEqual({ ids: [], total: 0 });
    expect(await listed(app, other, `task_assigned_to=${ada}`)).toEqual({ ids: [], total: 0 });
  });

  test("a value that is not a uuid: 400 invalid_body naming task_assigned_to", async () => {
    const app = await sharedApp(engine);
    const org = await makeOrg(app);
    const answer = await call(app, "GET", "/dossiers?task_assigned_to=me", { key: org.key });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: "invalid_body", param: "task_assigned_to" });
  });
});
