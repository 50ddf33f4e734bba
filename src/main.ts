#!/usr/bin/env bun
// The `dossier` command (C2). From source: `bun src/main.ts <command>`.
import { withHeapHint } from "./heap-hint";

// Before the commands' modules load (most of the start-up's time): `serve` may start again as
// itself with the heap's hint (src/heap-hint.ts).
withHeapHint();
await import("./cli/commands");
