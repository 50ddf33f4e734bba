// The X-Service-Signature header (api-v1 "Signature verification", C7).
//   t=<unix seconds>,v1=<hex HMAC-SHA256 keyed with the whole secret string over "<t>.<raw body>">
// During a rotation's 24 h a second v1= (the previous secret's) follows the first.

/** Hex HMAC-SHA256 of `<t>.<body>` keyed with the UTF-8 bytes of the whole secret (`whsec_...`). */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return new Bun.CryptoHasher("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The header value for the current secret and, while it is still valid, the previous one. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`)].join(",");
}

export interface EndpointSecrets {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** The secrets that sign at `now`: the current one, then the previous one until it expires. */
export function signingSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  const secrets = [endpoint.secret];
  if (
    endpoint.previous_secret &&
    endpoint.previous_secret_expires_at &&
    Date.parse(endpoint.previous_secret_expires_at) > now.getTime()
  ) {
    secrets.push(endpoint.previous_secret);
  }
  return secrets;
}
