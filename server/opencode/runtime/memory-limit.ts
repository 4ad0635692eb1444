// The default memory limit for OpenCode's RSS, derived from the machine's total memory (pure).
//
// Why clamp(total / 16, 1 GiB, 2 GiB): an idle OpenCode with its default instance is ≈ 0.55 GB and each live tool-set
// instance adds 45–70 MB that `instance.dispose` never gives back (runtime report Q6), so a healthy process with the
// default 6 live instances sits at ≈ 0.8–1.0 GB. A limit under 1 GiB would recycle a healthy process over and over;
// above 2 GiB a tray app is no longer "small" on any machine, and the slow growth the upstream tracker reports
// (days, then a hang) is well past that point. 1/16 of RAM keeps the cost modest on 8–16 GB laptops (1 GiB) and
// lets bigger machines keep more instances warm (24 GB → 1.5 GiB, 32 GB+ → 2 GiB).

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Default limit in bytes for a machine with `totalMemBytes` of RAM: clamp(total / 16, 1 GiB, 2 GiB). */
export function defaultMemoryLimitBytes(totalMemBytes: number): number {
  return Math.min(2 * GIB, Math.max(1 * GIB, Math.floor(totalMemBytes / 16)));
}

/**
 * The effective limit in bytes from the `opencodeMemoryLimitMB` setting: null = automatic (see
 * {@link defaultMemoryLimitBytes}), 0 = recycling off (returns 0), otherwise that many MiB.
 */
export function effectiveMemoryLimitBytes(settingMB: number | null, totalMemBytes: number): number {
  if (settingMB === null) return defaultMemoryLimitBytes(totalMemBytes);
  return settingMB * MIB;
}

/** The idle-recycle watermark: 60 % of the limit (above a freshly warmed OpenCode's ≈ 0.55 GB at the 1 GiB floor). */
export function lowWatermarkBytes(limitBytes: number): number {
  return Math.floor(limitBytes * 0.6);
}

/** What a freshly started OpenCode with its default instance uses (MiB; runtime report Q6: ≈ 0.55 GB). */
export const FRESH_OPENCODE_RSS_MB = 550;

/**
 * A notice for the user when the `opencodeMemoryLimitMB` setting is below what a fresh OpenCode already uses: such a
 * limit restarts OpenCode every minute or two (small values stay allowed, for soaks that force recycles). Null when
 * the setting is automatic, off (0), or large enough.
 */
export function memoryLimitNotice(settingMB: number | null): string | null {
  if (settingMB === null || settingMB === 0 || settingMB >= FRESH_OPENCODE_RSS_MB) return null;
  return (
    `The OpenCode memory limit is ${settingMB} MiB, below the ≈ ${FRESH_OPENCODE_RSS_MB} MB a freshly started ` +
    "OpenCode already uses, so OpenCode will be restarted every minute or two. Raise it in Settings, or set it to " +
    "automatic."
  );
}
