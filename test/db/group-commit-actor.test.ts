// C18: a unit runs later, in its group's commit, not in the async context of whoever wrote it; the
// group commit makes the writer's actor (src/actor.ts) current again while that unit runs.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { asActor, currentActor, type Actor } from "../../src/actor";
import { GroupCommit } from "../../src/db/group-commit";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

test("C18: each unit of one group runs as the actor that called write, one written by nobody and the commit listeners as nobody", async () => {
  const sqlite = new Database(join(tempDir(), "g.db"), { create: true, strict: true });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const store = new GroupCommit(sqlite, { flush: () => gate });
  const listenersSaw: unknown[] = [];
  store.onCommit(() => listenersSaw.push(currentActor()));
  const first: Actor = { type: "key", id: "k1", name: null };
  const second: Actor = { type: "email", id: "a@example.com", name: "A" };
  const third: Actor = { type: "member", id: "m1", name: "M" };
  // The first write starts a group whose flush waits on the gate; the next three queue behind it
  // and commit together in the next group.
  const opening = asActor(first, () => store.write(() => currentActor()));
  await new Promise<void>((resolve) => setImmediate(resolve)); // the first group commits on the next turn
  const queued = [
    asActor(second, () => store.write(() => currentActor())),
    store.write(() => currentActor()),
    asActor(third, () => store.write(() => currentActor())),
  ];
  release();
  expect(await opening).toEqual(first);
  expect(await Promise.all(queued)).toEqual([second, null, third]);
  // What runs after a commit (the webhook dispatcher's wake-up) is nobody's either.
  expect(listenersSaw).toEqual([null, null]);
  sqlite.close();
});
