// The dashboard's session (issue 16 item 9): a token traded for the one-time login URL's nonce, kept in this tab's
// sessionStorage and sent as `Authorization: Bearer` by every admin request. sessionStorage belongs to this origin
// (scheme, host AND port), and a header is only sent by code that adds it, so no other local server ever receives
// the credential, unlike a cookie, which browsers send to every port of 127.0.0.1.
import { SESSION_STORAGE_KEY, SessionCreated, adminApi } from "../../shared/admin-api";

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: the session then lasts as long as the page (kept in memory below)
  }
}

let memoryToken: string | null = null;

/** The current session token, or null when signed out. */
export function sessionToken(): string | null {
  return storage()?.getItem(SESSION_STORAGE_KEY) ?? memoryToken;
}

function setSessionToken(token: string | null): void {
  memoryToken = token;
  const s = storage();
  if (!s) return;
  if (token === null) s.removeItem(SESSION_STORAGE_KEY);
  else s.setItem(SESSION_STORAGE_KEY, token);
}

/** Headers that authenticate an admin request (none when signed out). */
export function authHeaders(): Record<string, string> {
  const token = sessionToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** `next` of a login URL when it is a path on this origin (never another site: no open redirect). */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}

/** Outcome of {@link completeLogin}. */
export type LoginOutcome = "not-a-login" | "signed-in" | "expired";

/** On `/login?token=…`: trades the nonce for a session token, stores it and replaces the URL (the nonce leaves the
 *  address bar and history) with `next` or `/`. Runs before the app renders. */
export async function completeLogin(): Promise<LoginOutcome> {
  if (window.location.pathname !== "/login") return "not-a-login";
  const params = new URLSearchParams(window.location.search);
  const loginToken = params.get("token") ?? "";
  const next = safeNext(params.get("next"));
  let outcome: LoginOutcome = "expired";
  if (loginToken) {
    try {
      const res = await fetch(adminApi.openDashboardSession.path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ loginToken }),
        credentials: "omit",
      });
      const parsed = res.ok ? SessionCreated.safeParse(await res.json()) : null;
      if (parsed?.success) {
        setSessionToken(parsed.data.sessionToken);
        memorySignedOut = false;
        storage()?.removeItem(SIGNED_OUT_KEY);
        outcome = "signed-in";
      }
    } catch {
      outcome = "expired";
    }
  }
  window.history.replaceState(null, "", outcome === "signed-in" ? next : "/");
  return outcome;
}

/** sessionStorage key remembering that this tab signed out on purpose (the signed-out screen says so). */
const SIGNED_OUT_KEY = "patchbay.signedOutByUser";
let memorySignedOut = false;

/** True when this tab's last session ended by its own Sign out (not by a restart or another tab). */
export function signedOutByUser(): boolean {
  return memorySignedOut || storage()?.getItem(SIGNED_OUT_KEY) === "1";
}

/** Signs out: ends the session on the server (best effort) and forgets the token. */
export async function signOut(): Promise<void> {
  const headers = authHeaders();
  setSessionToken(null);
  memorySignedOut = true;
  storage()?.setItem(SIGNED_OUT_KEY, "1");
  if (!headers.authorization) return;
  await fetch(adminApi.closeDashboardSession.path, { method: "DELETE", headers, credentials: "omit" }).catch(
    () => undefined,
  );
}

/** Forgets a token the server no longer accepts (Patchbay restarted, or the session was ended elsewhere). */
export function forgetSession(): void {
  setSessionToken(null);
}
