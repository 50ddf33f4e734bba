// Where the app is reached and who reaches it: the base of the links it hands out, the origin a
// browser's page of ours sends, whether a request came over HTTPS, and the client's address.
// A request's own headers (Host, X-Forwarded-*) say what the sender wants them to say, so they
// decide nothing here unless the operator vouches for a proxy that sets them (DOSSIER_TRUST_PROXY).
import type { Config } from "../config";

/** The CLI's base when the server has none of its own (C20); also an app that is not served. */
const UNSERVED_BASE = "http://127.0.0.1:8080";

export class Site {
  private listening: string | null = null;
  private readonly sockets = new WeakMap<Request, string>();

  constructor(private readonly config: Config) {}

  /** The server says where it listens, once it does (the port may have been 0). */
  serving(url: string) {
    this.listening = url.replace(/\/+$/, "");
  }

  /** `<base>` of setup links (C20): DOSSIER_PUBLIC_URL, else the server's own http://host:port. */
  get base(): string {
    return this.config.publicUrl ?? this.listening ?? UNSERVED_BASE;
  }

  /** The app notes the address of the socket a request came on. */
  arrived(request: Request, address: string | undefined) {
    if (address) this.sockets.set(request, address);
  }

  /** The client's address for the sign-in throttle: the socket's, or with a trusted proxy the
   * right-most X-Forwarded-For (the one the proxy added: those left of it are the client's say). */
  clientAddress(request: Request): string {
    if (this.config.trustProxy) {
      const forwarded = request.headers.get("x-forwarded-for");
      const last = forwarded?.split(",").at(-1)?.trim();
      if (last) return last;
    }
    return this.sockets.get(request) ?? "unknown";
  }

  /** Whether the request came over HTTPS, so the session cookie is Secure (C12, C20). */
  secure(request: Request): boolean {
    if (this.config.publicUrl?.startsWith("https:")) return true;
    if (request.url.startsWith("https:")) return true;
    return this.config.trustProxy && request.headers.get("x-forwarded-proto")?.split(",")[0].trim().toLowerCase() === "https";
  }

  /** Whether `origin` (a request's Origin header) is this server's own: its public URL's, the
   * address it listens on, or the one the request was sent to (a browser sends the Host it
   * connects to, and a page elsewhere cannot make it send ours with its own Origin). */
  ownOrigin(request: Request, origin: string): boolean {
    const own = [this.config.publicUrl, this.listening, request.url].filter((url): url is string => url !== null).map(originOf);
    return own.includes(origin.toLowerCase());
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return "";
  }
}
