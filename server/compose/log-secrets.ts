// The secrets a Patchbay knows by value, scrubbed from every request log entry wherever they appear (a body may echo
// one): its admin token, the dashboard login tokens it handed out, the admin app's session tokens, OpenCode's Basic
// credential and password, the side channel's token and the user's provider credentials.

/** Where the secrets come from; each is read when the log asks, since some exist only later. */
export interface LogSecretSources {
  adminToken: string;
  /** The admin app's live session tokens. */
  adminSessions: () => string[];
  /** OpenCode's `Authorization` header value while it runs, else null. */
  openCodeAuthorization: () => string | null;
  sideChannelToken: string;
  /** The user's provider credentials (logins, config keys, key variables). */
  upstream: () => string[];
}

/** The registry: {@link all} for the request log, {@link rememberLoginUrl} for each one-time login URL handed out. */
export interface LogSecrets {
  all(): string[];
  /** Keeps the URL's `token` (the newest 16; older ones are long used or forgotten by the admin app). */
  rememberLoginUrl(url: string): string;
}

/** Login tokens kept (see {@link LogSecrets.rememberLoginUrl}). */
const KEPT_LOGIN_TOKENS = 16;

/** See the module comment. */
export function createLogSecrets(s: LogSecretSources): LogSecrets {
  const loginTokens: string[] = [];
  /** OpenCode's Basic credential and password, as first seen (constant for a run). */
  let openCode: string[] = [];
  return {
    all() {
      const authorization = s.openCodeAuthorization();
      if (authorization && openCode.length === 0) {
        const basic = authorization.replace(/^Basic\s+/i, "");
        const decoded = Buffer.from(basic, "base64").toString("utf8");
        openCode = [basic, decoded.slice(decoded.indexOf(":") + 1)];
      }
      return [s.adminToken, ...loginTokens, ...s.adminSessions(), ...openCode, s.sideChannelToken, ...s.upstream()];
    },
    rememberLoginUrl(url) {
      const token = new URL(url).searchParams.get("token");
      if (token) loginTokens.push(token);
      if (loginTokens.length > KEPT_LOGIN_TOKENS) loginTokens.shift();
      return url;
    },
  };
}
