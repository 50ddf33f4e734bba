// A real headless Chromium for tests that drive a page: playwright-core with @sparticuz/chromium's
// build (no browser download; unpacked by ./chromium.ts). One browser per test file, launched on
// first use and closed after the file; each test takes a new context (its own cookies and storage)
// with newContext().
import { afterAll } from "bun:test";
import { chromium as playwright, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { chromiumArgs, chromiumExecutable } from "./chromium";

let launched: Promise<Browser> | null = null;

/** The file's browser, launched on first use. */
export function browser(): Promise<Browser> {
  launched ??= (async () => playwright.launch({ executablePath: await chromiumExecutable(), args: chromiumArgs, headless: true }))();
  return launched;
}

/** A new context for one test; it is closed with the browser after the file, or sooner by the test. */
export async function newContext(options?: BrowserContextOptions): Promise<BrowserContext> {
  return (await browser()).newContext(options);
}

/** Every URL the page asks for from now on (documents, scripts, styles, fonts, fetches, ...). */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

afterAll(async () => {
  if (!launched) return;
  const closing = launched;
  launched = null;
  // A launch that failed has failed its tests already: nothing to close.
  await (await closing.catch(() => null))?.close();
});
