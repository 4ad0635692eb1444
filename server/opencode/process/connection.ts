// How Patchbay reaches one `opencode serve`: the Basic credential (a random password per supervisor, handed to the
// child as OPENCODE_SERVER_PASSWORD) and the SDK v2 client built from a URL and that credential. The only place
// either is built.
import crypto from "node:crypto";
import { createOpencodeClient, type OpencodeClient } from "@opencode-ai/sdk/v2";

/** OpenCode's server username for Basic auth (fixed by `opencode serve`). */
const USERNAME = "opencode";

/** A running server's address and the Authorization header it takes (raw HTTP such as the event stream uses it). */
export interface OpenCodeConnection {
  url: string;
  authorization: string;
}

/** Builds an SDK v2 client scoped to `directory` (an instance) when given. */
export type ClientFactory = (directory?: string) => OpencodeClient;

/** The password every process of one supervisor is started with, and the Authorization header that matches it. */
export class OpenCodeCredential {
  /** For the child's environment (child-env.ts). */
  readonly password = crypto.randomBytes(24).toString("base64url");
  /** `Basic base64(opencode:<password>)`. */
  readonly authorization = "Basic " + Buffer.from(`${USERNAME}:${this.password}`).toString("base64");

  /** The connection to a server of this credential listening at `url`. */
  at(url: string): OpenCodeConnection {
    return { url, authorization: this.authorization };
  }
}

/** SDK v2 client for `conn`, scoped to `directory` when given. */
export function openCodeClient(conn: OpenCodeConnection, directory?: string): OpencodeClient {
  return createOpencodeClient({
    baseUrl: conn.url,
    headers: { authorization: conn.authorization },
    ...(directory ? { directory } : {}),
  });
}

/** A {@link ClientFactory} for `conn`. */
export function clientFactory(conn: OpenCodeConnection): ClientFactory {
  return (directory) => openCodeClient(conn, directory);
}
