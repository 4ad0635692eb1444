// The keep-alive as the composition root wires it: which keep-alive applies (this run's flag, else Settings), when
// automatic history sweeps may wake a sleeping OpenCode, and the restart action. Keeps server/index.ts to wiring.
import { parseKeepAlive } from "../../../shared/keep-alive";
import type { Settings } from "../../../shared/settings";
import type { RequestGate } from "../session/request-gate";
import { KeepAlive, type SleepingProcess } from "./keep-alive";
import { restartOpenCode, type RestartableProcess } from "./restart";

/** A sleeping OpenCode is woken for automatic history sweeps at most this often (ms): age limits are a retention
 *  promise, kept within a day even when no request comes for weeks. */
const SWEEP_WAKE_EVERY_MS = 24 * 3_600_000;

/** Inputs of {@link setUpKeepAlive}. */
export interface KeepAliveSetup {
  process: SleepingProcess & RestartableProcess;
  gate: RequestGate;
  settings: { get(): Settings; onChange(listener: (s: Settings) => void): () => void };
  /** This run's keep-alive (ms, null = forever), winning over Settings; undefined = Settings. */
  override: number | null | undefined;
  /** Background work using OpenCode after a start (pre-warm); the sleep waits for it. */
  quiet: () => Promise<void>;
  log: (line: string) => void;
  now: () => number;
  onChange: () => void;
}

/** The keep-alive (not started), the sweeps' permission and the restart action. */
export function setUpKeepAlive(o: KeepAliveSetup): {
  keepAlive: KeepAlive;
  automaticSweeps: () => boolean;
  restart: () => Promise<void>;
} {
  const keepAliveMs = (): number | null => {
    if (o.override !== undefined) return o.override;
    const parsed = parseKeepAlive(o.settings.get().opencodeKeepAlive);
    return parsed === undefined ? null : parsed; // (the schema refuses invalid text; never sleep on a surprise)
  };
  const keepAlive = new KeepAlive({
    process: o.process,
    gate: o.gate,
    keepAliveMs,
    quiet: o.quiet,
    log: o.log,
    now: o.now,
    onChange: o.onChange,
  });
  o.settings.onChange(() => keepAlive.changed());
  let lastSweepWake = o.now();
  const automaticSweeps = (): boolean => {
    if (o.process.status().state !== "sleeping") return true;
    if (o.now() - lastSweepWake < SWEEP_WAKE_EVERY_MS) return false;
    lastSweepWake = o.now();
    return true;
  };
  const restart = () =>
    restartOpenCode(o.process, o.gate, o.log).catch((err: unknown) =>
      o.log(`[opencode] restart failed: ${String(err)}`),
    );
  return { keepAlive, automaticSweeps, restart };
}
