// Handlers of the agent check rows of the admin endpoint table (issue 25): the Connect page starts `patchbay doctor`
// in the background (server/doctor/doctor-runs.ts) and polls it.
import { PatchbayError } from "../../../core/errors";
import type { DoctorService } from "../../../doctor/doctor-runs";
import type { AdminServices } from "../services";
import type { Handler } from "./handler";

function doctor(s: AdminServices): DoctorService {
  if (!s.doctor) throw new PatchbayError("backend_unavailable", "The agent check is not available in this Patchbay.");
  return s.doctor;
}

export const doctorHandlers: { [K in "startDoctor" | "getDoctor"]: Handler<K> } = {
  startDoctor: ({ body }, s) => doctor(s).start(body.clients),
  getDoctor: (_i, s) => doctor(s).current(),
};
