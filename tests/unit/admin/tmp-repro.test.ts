import { test } from "node:test";
import { startAdmin } from "./fakes";
test("repro", async () => {
  const s = await startAdmin({ withStatic: true });
  for (const m of ["GET", "DELETE", "PATCH", "POST"]) for (const p of ["/admin/api/apps/%ff", "/admin/api/apps/%ff/keys", "/admin/api/apps/x/keys/%ff", "/admin/api/%ff", "/%ff", "/admin/api/apps/%ff/sessions/%ff/messages"]) {
    const r = await s.request(m, p, m === "GET" || m === "DELETE" ? {} : { body: {} });
    console.log(m, p.replace(/%/g, "%%"), r.status, JSON.stringify(r.json()));
  }
  await s.close();
});
