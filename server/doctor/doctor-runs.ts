// The dashboard's agent check (issue 25): one `patchbay doctor` run at a time in the background of a running Patchbay,
// its progress lines and results kept for the Connect page to poll (`GET /admin/api/doctor`). Only the last run is
// kept, in memory: the passing versions themselves are remembered by doctor (<data dir>/doctor.json).
import type { DoctorClientId, DoctorClientResult, DoctorRun } from "../../shared/admin/doctor";
import { PatchbayError } from "../core/errors";

/** Runs doctor for `only` (absent: every installed client), reporting progress lines; rejects when the run breaks. */
export type DoctorRunner = (o: {
  only?: DoctorClientId[];
  progress: (line: string) => void;
  signal: AbortSignal;
}) => Promise<DoctorClientResult[]>;

/** What the admin rows call (AdminServices.doctor). */
export interface DoctorService {
  /** Starts a run and returns its state; throws PatchbayError `conflict` (409) while one is running. */
  start(clients?: DoctorClientId[]): DoctorRun;
  /** The last or current run (state `idle` before the first). */
  current(): DoctorRun;
  /** Stops a running check (its client killed, its throwaway Patchbay stopped) and waits for it to end. */
  stop(): Promise<void>;
}

/** Progress lines kept per run (a run prints a few per client). */
const MAX_PROGRESS = 200;

const IDLE: DoctorRun = {
  state: "idle",
  clients: null,
  progress: [],
  results: [],
  startedAt: null,
  finishedAt: null,
  error: null,
};

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One run at a time of `runner`; the last run's state. */
export function createDoctorRuns(runner: DoctorRunner, now: () => number = Date.now): DoctorService {
  let run: DoctorRun = IDLE;
  let going: { done: Promise<void>; abort: AbortController } | null = null;
  const copy = (r: DoctorRun): DoctorRun => ({ ...r, progress: [...r.progress], results: [...r.results] });
  return {
    start(clients) {
      if (going) throw new PatchbayError("conflict", "An agent check is already running; wait for it to finish.");
      const mine: DoctorRun = { ...IDLE, state: "running", clients: clients ?? null, progress: [], startedAt: now() };
      run = mine;
      const progress = (line: string) => {
        if (mine.progress.length < MAX_PROGRESS) mine.progress.push(line);
      };
      // Marked as going before the runner is called: a runner that throws at once still clears it below.
      const entry = { abort: new AbortController(), done: Promise.resolve() };
      going = entry;
      entry.done = (async () => {
        try {
          const only = clients ? { only: clients } : {};
          const results = await runner({ ...only, progress, signal: entry.abort.signal });
          run = { ...mine, state: "done", results, finishedAt: now() };
        } catch (err) {
          const why = entry.abort.signal.aborted ? "Patchbay stopped during the check." : errorText(err);
          run = { ...mine, state: "failed", finishedAt: now(), error: why };
        } finally {
          if (going === entry) going = null;
        }
      })();
      return copy(run);
    },
    current: () => copy(run),
    async stop() {
      if (!going) return;
      going.abort.abort();
      await going.done;
    },
  };
}
