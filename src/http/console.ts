// The console (C14): the web app for people, served by this executable at /console/ with no
// request to any other machine. Bun's HTML import bundles it: `bun build --compile` does so at build
// time and embeds the files (the bundle then lists them); under `bun src/main.ts` or `bun test` the
// import is the page's source, bundled here once, on the first request for it.
//   GET /                    → 302 /console/
//   GET /console             → 302 /console/
//   GET /console/assets/X    a hashed file: compressed as the browser accepts, cached for a year
//   GET /console/...         the page, for every client-side route
import { brotliCompressSync, constants as zlib } from "node:zlib";
import { basename } from "node:path";
import { Elysia } from "elysia";
import page from "../console/index.html";
import { acceptedEncodings } from "./encoding";

const ASSETS = "/console/assets/";

/** The page's policy (C14): this origin only, no inline script; `frame-src blob:` for viewing a CV
 * from the bytes the page fetched (C20 "Viewing a CV in the console"). */
export const CONSOLE_CSP = "default-src 'self'; frame-ancestors 'none'; frame-src blob:";

type Bytes = Uint8Array<ArrayBuffer>;

interface Encoded {
  identity: Bytes;
  gzip: Bytes;
  br: Bytes;
}

interface Asset extends Encoded {
  type: string;
}

interface Bundle {
  page: Encoded;
  assets: Map<string, Asset>;
}

const encode = (identity: Bytes): Encoded => ({
  identity,
  gzip: Bun.gzipSync(identity, { level: 9 }),
  br: new Uint8Array(brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.byteLength } })),
});

/** The files as built: embedded by the compiler, or bundled now from the page's source. */
/** React's production build, as `npm run build` defines it. The name is replaced in the bundle's
 * source text; this process's environment is not read (src/config.ts is where that happens). */
const PRODUCTION = { [["process", "env", "NODE_ENV"].join(".")]: JSON.stringify("production") };

async function builtFiles(): Promise<{ name: string; type: string; bytes: Bytes; html: boolean }[]> {
  if (page.files) {
    return Promise.all(
      page.files.map(async (file) => ({
        name: basename(file.path),
        type: file.headers["content-type"],
        bytes: await Bun.file(file.path).bytes(),
        html: file.loader === "html",
      })),
    );
  }
  const built = await Bun.build({
    entrypoints: [page.index],
    minify: true,
    target: "browser",
    define: PRODUCTION,
    naming: { entry: "[name]-[hash].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  });
  if (!built.success) throw new AggregateError(built.logs, "the console failed to bundle");
  return Promise.all(
    built.outputs.map(async (output) => ({
      name: basename(output.path),
      type: output.type,
      bytes: new Uint8Array(await output.arrayBuffer()),
      html: output.type.startsWith("text/html"),
    })),
  );
}

/** Every file but the page is served under /console/assets/ by its hashed name, so the page's
 * references to them (root-relative or relative, as the bundler wrote them) are pointed there. */
async function bundle(): Promise<Bundle> {
  const files = await builtFiles();
  const assets = new Map<string, Asset>();
  let html = "";
  for (const file of files) {
    if (file.html) html = new TextDecoder().decode(file.bytes);
    else assets.set(file.name, { type: file.type, ...encode(file.bytes) });
  }
  if (!html) throw new Error("the console's bundle holds no page");
  for (const name of assets.keys()) {
    html = html.replace(new RegExp(`(["'])(?:\\.?/)?${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\1`, "g"), `$1${ASSETS}${name}$1`);
  }
  return { page: encode(new TextEncoder().encode(html)), assets };
}

let built: Promise<Bundle> | null = null;
/** Bundled once per process; a failure is not kept, so the next request tries again. */
const ready = () => (built ??= bundle().catch((error) => ((built = null), Promise.reject(error))));

/** The encoding to send: brotli, else gzip, as the Accept-Encoding header allows (a q of 0 refuses). */
export function chooseEncoding(accept: string | null): keyof Encoded {
  const allowed = acceptedEncodings(accept);
  if (allowed.has("br")) return "br";
  if (allowed.has("gzip") || allowed.has("*")) return "gzip";
  return "identity";
}

function send(request: Request, body: Encoded, headers: Record<string, string>): Response {
  const encoding = chooseEncoding(request.headers.get("accept-encoding"));
  const all: Record<string, string> = { ...headers, vary: "Accept-Encoding", "x-content-type-options": "nosniff" };
  if (encoding !== "identity") all["content-encoding"] = encoding;
  return new Response(body[encoding], { headers: all });
}

const redirect = (location: string) => new Response(null, { status: 302, headers: { location } });

async function servePage(request: Request): Promise<Response> {
  const { page: html } = await ready();
  return send(request, html, {
    "content-type": "text/html; charset=utf-8",
    // The page names the hashed files of this build: it is asked for again each time.
    "cache-control": "no-cache",
    "content-security-policy": CONSOLE_CSP,
    "referrer-policy": "no-referrer",
  });
}

async function serveAsset(request: Request, name: string): Promise<Response> {
  const asset = (await ready()).assets.get(name);
  if (!asset) return new Response("no such file", { status: 404, headers: { "content-type": "text/plain;charset=utf-8" } });
  return send(request, asset, { "content-type": asset.type, "cache-control": "public, max-age=31536000, immutable" });
}

/** Whether the request is a browser's asking for a page: its Accept names text/html, not refused
 * with q=0. Programs send application/json, or any type, and keep the API's JSON answers. */
export function asksForPage(request: Request): boolean {
  const accept = request.headers.get("accept");
  if (!accept) return false;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    return type === "text/html" && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}

/** A page that does not exist, as a browser is answered outside /api/v1: a short page with the way
 * to the console, under the console's policy (no script, no style, nothing of the request in it). */
const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Page not found · Dossier</title></head>
<body>
<h1>Page not found</h1>
<p>There is no page at this address.</p>
<p><a href="/">Go to the Dossier console</a></p>
</body>
</html>
`;

/** For the errors plugin (src/http/errors.ts): the 404 page's headers set, its HTML to answer. */
export function notFoundPage(set: { headers: Record<string, string | number> }): string {
  set.headers["content-type"] = "text/html; charset=utf-8";
  set.headers["content-security-policy"] = CONSOLE_CSP;
  set.headers["referrer-policy"] = "no-referrer";
  set.headers["cache-control"] = "no-cache";
  return NOT_FOUND_PAGE;
}

export const consoleRoutes = () =>
  new Elysia({ name: "console" })
    .get("/", () => redirect("/console/"), { detail: { hide: true } })
    .get("/console", () => redirect("/console/"), { detail: { hide: true } })
    .get("/console/", ({ request }) => servePage(request), { detail: { hide: true } })
    .get(`${ASSETS}:name`, ({ request, params }) => serveAsset(request, params.name), { detail: { hide: true } })
    .get("/console/*", ({ request }) => servePage(request), { detail: { hide: true } });
