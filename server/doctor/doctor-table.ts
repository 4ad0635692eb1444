// doctor's results as a plain-text table (one row per client, one column per check any client had), then one line per
// client without an image check, then one line per failed check. Pure.
import type { DoctorClientResult } from "./run-doctor";

/** The table `patchbay doctor` prints. A client without one of the columns' checks shows `n/a` there. */
export function doctorTable(results: readonly DoctorClientResult[]): string {
  const columns = [...new Map(results.flatMap((r) => r.checks.map((c) => [c.id, c.title] as const))).entries()];
  const head = ["client", "version", ...columns.map(([, title]) => title), "last passed"];
  const rows = results.map((r) => [
    r.name,
    r.version ?? "?",
    ...columns.map(([id]) => {
      const check = r.checks.find((c) => c.id === id);
      return check ? (check.ok ? "ok" : "FAILED") : "n/a";
    }),
    r.lastPassedVersion ?? "never",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const noImage = results.flatMap((r) => (r.image ? [`${r.name}: no image check (${r.image}).`] : []));
  const failures = results.flatMap((r) =>
    r.checks.filter((c) => !c.ok).map((c) => `${r.name} ${r.version ?? ""} ${c.title}: ${c.detail ?? "failed"}`),
  );
  return [
    line(head),
    ...rows.map(line),
    ...(noImage.length ? ["", ...noImage] : []),
    ...(failures.length ? ["", "Failures:", ...failures.map((f) => `  ${f}`)] : []),
    "",
  ].join("\n");
}
