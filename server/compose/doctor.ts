// The dashboard's agent check wired to the real doctor (server/doctor/run-doctor.ts, loaded on the first run): its
// throwaway Patchbay comes from the createPatchbay it is handed (the composition root passes itself, so nothing
// imports server/index.ts) and shares this Patchbay's OpenCode binary and user paths.
import type { CreatePatchbay, PatchbayDeps } from "../patchbay-types";
import { createDoctorRuns, type DoctorService } from "../doctor/doctor-runs";

/** What the wiring needs from the composition root. */
export interface DoctorWiring {
  createPatchbay: CreatePatchbay;
  /** This Patchbay's deps (OpenCode binary, user paths, the clients' environment). */
  deps: PatchbayDeps;
  /** This Patchbay's data folder: doctor keeps the last passing versions there (doctor.json), as the CLI does. */
  dataDir: string;
}

/** The admin rows' doctor service. Agents are found and run with `deps.clientEnv` (default: this process's env). */
export function wireDoctor({ createPatchbay, deps, dataDir }: DoctorWiring): DoctorService {
  const inherit: Partial<PatchbayDeps> = {
    ...(deps.opencodeBinary ? { opencodeBinary: deps.opencodeBinary } : {}),
    ...(deps.userOpenCode ? { userOpenCode: deps.userOpenCode } : {}),
  };
  return createDoctorRuns(async ({ only, progress, signal }) => {
    const { runDoctor } = await import("../doctor/run-doctor");
    return runDoctor({
      createPatchbay: (d) => createPatchbay({ ...d, ...inherit }),
      dataDir,
      env: deps.clientEnv ?? process.env,
      progress,
      signal,
      ...(only ? { only } : {}),
    });
  });
}
