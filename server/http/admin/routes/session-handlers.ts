// Handlers of the dashboard-session rows (issue 16 items 9 and 14): trade a login nonce for a session token, sign
// out, and mint a fresh login URL. The login state itself lives in the admin app (AdminLogins); no HTTP here.
import { PatchbayError } from "../../../core/errors";
import type { Handler } from "./handler";

type SessionRow = "openDashboardSession" | "closeDashboardSession" | "createLoginLink";

export const sessionHandlers: { [K in SessionRow]: Handler<K> } = {
  openDashboardSession: ({ body }, s, ctx) => {
    const sessionToken = ctx.logins.exchange(body.loginToken);
    if (sessionToken === null)
      throw new PatchbayError(
        "admin_auth_required",
        `This login link was already used or is unknown. Get a new one with \`${s.cli("dashboard")}\`, or open ` +
          "the dashboard from the tray.",
      );
    return { sessionToken };
  },
  closeDashboardSession: (_input, _s, ctx) => {
    if (ctx.credential !== null) ctx.logins.revoke(ctx.credential);
    return { ok: true as const };
  },
  createLoginLink: (_input, _s, ctx) => ({ url: ctx.logins.createLoginUrl() }),
};
