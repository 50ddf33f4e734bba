// Where the tests' Chromium is. @sparticuz/chromium unpacks its browser into the temp folder
// (chromium, swiftshader's libraries, fonts/: about 200 MB) and leaves it there for the next run;
// the tests leave nothing there. So it is unpacked once per machine and version into
// node_modules/.cache, where npm's other caches live, by a child whose temp folder is one of its
// own there, renamed into place whole: test files run in parallel, and one that finds the folder
// finds it complete.
import chromium from "@sparticuz/chromium";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const PACKAGE = join(ROOT, "node_modules", "@sparticuz", "chromium");
const CACHE = join(ROOT, "node_modules", ".cache", "dossier-chromium");

let unpacked: Promise<string> | null = null;

/** The Chromium binary, unpacked on first use (see above). */
export function chromiumExecutable(): Promise<string> {
  unpacked ??= unpack().catch((error) => {
    unpacked = null;
    throw error;
  });
  return unpacked;
}

/** The flags @sparticuz/chromium's build runs with. */
export const chromiumArgs = chromium.args;

async function unpack(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { version: string };
  const folder = join(CACHE, version);
  const binary = join(folder, "chromium");
  if (existsSync(binary)) return binary;
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, `${version}.unpacking-`));
  try {
    // The package unpacks into os.tmpdir(), read from TMPDIR when it is called: in a child, so that
    // this process's temp folder never changes under the tests running beside it.
    const child = Bun.spawn([process.execPath, "-e", "(await import('@sparticuz/chromium')).default.executablePath()"], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging },
      stdout: "ignore",
      stderr: "pipe",
    });
    const [code, errors] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    if (code !== 0 || !existsSync(join(staging, "chromium"))) throw new Error(`unpacking @sparticuz/chromium ${version} failed (exit ${code}): ${errors}`);
    try {
      renameSync(staging, folder);
    } catch (error) {
      // Another test file unpacked it meanwhile: its folder is whole (renamed as one).
      if (!existsSync(binary)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}
