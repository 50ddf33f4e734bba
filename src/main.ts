#!/usr/bin/env bun
// The `dossier` command (C2). From source: `bun src/main.ts <command>`.
import { withHeapHint } from "./heap-hint";

// `serve` may start again as itself with the heap's hint (src/heap-hint.ts), before the commands'
// modules load: most of the start-up's time. In the executable they are an entry point of their
// own (package.json's build), embedded beside this one and loaded only now; from source, a module
// beside this one.
withHeapHint();
const COMMANDS = import.meta.url.includes("$bunfs") ? "./cli/commands.js" : new URL("./cli/commands.ts", import.meta.url).href;
await import(COMMANDS);
