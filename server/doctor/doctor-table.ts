// doctor's results as a plain-text table (one row per client), then one line per failed check. Pure.
import type { DoctorClientResult } from "./run-doctor";

/** The table `patchbay doctor` prints. */
export function doctorTable(results: readonly DoctorClientResult[]): string {
  const titles = results[0]?.checks.map((c) => c.title) ?? [];
  const head = ["client", "version", ...titles, "image", "last passed"];
  const rows = results.map((r) => [
    r.name,
    r.version ?? "?",
    ...r.checks.map((c) => (c.ok ? "ok" : "FAILED")),
    "n/a",
    r.lastPassedVersion ?? "never",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const failures = results.flatMap((r) =>
    r.checks.filter((c) => !c.ok).map((c) => `${r.name} ${r.version ?? ""} ${c.title}: ${c.detail ?? "failed"}`),
  );
  return [
    line(head),
    ...rows.map(line),
    "",
    `image: ${results[0]?.image ?? ""}`,
    ...(failures.length ? ["", "Failures:", ...failures.map((f) => `  ${f}`)] : []),
    "",
  ].join("\n");
}
