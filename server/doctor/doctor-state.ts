// What doctor remembers between runs: per client, the last version whose checks all passed (`<data dir>/doctor.json`,
// written atomically). A damaged file counts as empty (it is only a hint).
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";

const DoctorState = z.object({
  version: z.literal(1),
  clients: z.record(z.string(), z.object({ lastPassedVersion: z.string(), at: z.number().int() })),
});
export type DoctorState = z.infer<typeof DoctorState>;

/** The file in `dataDir`. */
export function doctorStatePath(dataDir: string): string {
  return path.join(dataDir, "doctor.json");
}

/** The remembered state (empty when there is no readable file). */
export async function readDoctorState(dataDir: string): Promise<DoctorState> {
  try {
    const parsed = DoctorState.safeParse(JSON.parse(await readFile(doctorStatePath(dataDir), "utf8")));
    if (parsed.success) return parsed.data;
  } catch {}
  return { version: 1, clients: {} };
}

/** Records `version` of client `id` as passing. */
export async function rememberPassed(dataDir: string, id: string, version: string, now = Date.now()): Promise<void> {
  const state = await readDoctorState(dataDir);
  state.clients[id] = { lastPassedVersion: version, at: now };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(doctorStatePath(dataDir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
