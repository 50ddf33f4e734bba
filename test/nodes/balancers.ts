// The load balancers of docs/scaling.md, started from the configurations printed there (between
// `<!-- config:KIND:begin -->` and `<!-- config:KIND:end -->`), for test/nodes/balancer.test.ts and
// bench/nodes.ts. Each runs in the foreground in a temp folder of its own, on loopback.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const BALANCERS = ["nginx", "haproxy", "caddy"] as const;
export type Balancer = (typeof BALANCERS)[number];

const DOC = resolve(import.meta.dir, "../../docs/scaling.md");
const EXAMPLE_NODES = ["127.0.0.1:8081", "127.0.0.1:8082", "127.0.0.1:8083"];

/** The balancer's program on this machine, or null. */
export const balancerProgram = (kind: Balancer) => Bun.which(kind, { PATH: `${process.env.PATH}:/usr/sbin:/sbin` });

/** The configuration block of docs/scaling.md, as printed. */
export function documentedConfig(kind: Balancer): string {
  const doc = readFileSync(DOC, "utf8");
  const match = new RegExp(`<!-- config:${kind}:begin -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n<!-- config:${kind}:end -->`).exec(doc);
  if (!match) throw new Error(`docs/scaling.md has no ${kind} configuration`);
  return match[1];
}

/** The documented block with the example nodes (ports 8081-8083) replaced by `nodes` (host:port,
 * one per example node, or all of them in the first one's place when there are fewer or more) and
 * the listening port 8080 by `port`. */
export function renderConfig(kind: Balancer, nodes: string[], port: number): string {
  const lines = documentedConfig(kind).split("\n");
  const out: string[] = [];
  for (const line of lines) {
    const at = EXAMPLE_NODES.findIndex((node) => line.includes(node));
    if (at < 0) {
      out.push(line.replace(/\b8080\b/, String(port)));
      continue;
    }
    if (kind === "caddy") {
      // One line names all the nodes.
      out.push(line.replace(EXAMPLE_NODES.join(" "), nodes.join(" ")));
      continue;
    }
    if (at > 0) continue; // the first example line stands for every node
    nodes.forEach((node, i) => out.push(line.replace(EXAMPLE_NODES[0], node).replace(/\bn1\b/, `n${i + 1}`)));
  }
  return out.join("\n");
}

export interface RunningBalancer {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** What it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `kind` with the documented configuration in front of `nodes`, on `port`. */
export async function startBalancer(kind: Balancer, nodes: string[], port: number): Promise<RunningBalancer> {
  const program = balancerProgram(kind);
  if (!program) throw new Error(`${kind} is not installed`);
  const dir = mkdtempSync(join(tmpdir(), `dossier-${kind}-`));
  const config = renderConfig(kind, nodes, port);
  let command: string[];
  let env: Record<string, string> = {};
  if (kind === "nginx") {
    writeFileSync(join(dir, "dossier.conf"), config);
    writeFileSync(
      join(dir, "nginx.conf"),
      // As root, nginx's workers would run as nobody, who cannot write the bodies it buffers here.
      `${process.getuid?.() === 0 ? "user root;\n" : ""}daemon off;\nmaster_process on;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
        `events { worker_connections 1024; }\n` +
        `http {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fastcgi;\n` +
        `  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n  include ${dir}/dossier.conf;\n}\n`,
    );
    command = [program, "-p", dir, "-c", join(dir, "nginx.conf")];
  } else if (kind === "haproxy") {
    writeFileSync(join(dir, "haproxy.cfg"), config);
    command = [program, "-db", "-f", join(dir, "haproxy.cfg")];
  } else {
    // No admin endpoint (its port would be shared by every Caddy on the machine), no certificates.
    writeFileSync(join(dir, "Caddyfile"), `{\n\tadmin off\n\tauto_https off\n}\n\n${config}`);
    command = [program, "run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"];
    env = { HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") };
  }
  const proc = Bun.spawn(command, { cwd: dir, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let text = "";
  for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[]) {
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
    })();
  }
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // Up when it answers /healthz from a node (bounded: 10 s).
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) break;
    const ok = await fetch(`${url}/healthz`).then((r) => r.status === 200, () => false);
    if (ok) return { url, proc, output: () => text, stop };
    await Bun.sleep(50);
  }
  await stop();
  throw new Error(`${kind} did not start:\n${text}\n${config}`);
}
