// Is an OpenCode that misses health probes wedged, or just busy (pure)? A process booting instances on a starved
// 2-core machine can miss a few 3 s probes while working hard; killing it then would fail requests for nothing.
// Frozen (SIGSTOP, state T) or deadlocked (no CPU progress) after `minMisses` → wedged; a process that keeps burning
// CPU without answering (a spin) gets `maxMisses` before it is declared wedged too.

/** Inputs of {@link isWedged}. */
export interface WedgeInputs {
  /** Probes in a row without an answer. */
  misses: number;
  /** Scheduler state letter now (Linux), null when unknown. */
  state: string | null;
  /** CPU ticks used since the first missed probe (Linux), null when unknown. */
  cpuTicksSinceFirstMiss: number | null;
  /** Wall time since the first missed probe started, ms. */
  msSinceFirstMiss: number;
  /** Misses that are enough when the process is not working (default 2). */
  minMisses: number;
  /** Misses that are enough regardless (default 4). */
  maxMisses: number;
}

/** True when the process should be killed and replaced. */
export function isWedged(i: WedgeInputs): boolean {
  if (i.misses < i.minMisses) return false;
  if (i.misses >= i.maxMisses) return true;
  if (i.state === "T" || i.state === "t") return true; // stopped: it will never answer
  if (i.cpuTicksSinceFirstMiss === null) return true; // no way to tell busy from stuck: trust the probes
  // Under 10 % of one core (ticks are 1/100 s) while not answering: stuck, not busy.
  return i.cpuTicksSinceFirstMiss < (i.msSinceFirstMiss / 10) * 0.1;
}

/** Inputs of {@link shouldProbe}. Times in ms. */
export interface ProbePacing {
  /** Probes in a row without an answer so far. */
  misses: number;
  /** True when no request needs OpenCode now. */
  idle: boolean;
  /** Since the last probe started (Infinity before the first). */
  sinceLastProbeMs: number;
  /** Probe period while idle. */
  idlePeriodMs: number;
}

/** Whether this health-timer tick probes: always while requests run or a miss streak is open (a wedge must be caught
 *  in seconds), once per `idlePeriodMs` while idle (the probe is most of an idle tray app's CPU). */
export function shouldProbe(p: ProbePacing): boolean {
  return p.misses > 0 || !p.idle || p.sinceLastProbeMs >= p.idlePeriodMs;
}
