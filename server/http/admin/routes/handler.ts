// The shape of one admin endpoint's handler, shared by the endpoint table (handlers.ts) and the rows each feature
// keeps in its own file (*-handlers.ts): parsed input in, a value the row's output schema accepts out.
import type { z } from "zod";
import type { AdminApi, EndpointParsedInput, JsonEndpointName } from "../../../../shared/admin-api";
import type { AdminRequestContext, AdminServices } from "../services";

/** A row's handler: parsed input in, a value its output schema accepts out. */
export type Handler<K extends JsonEndpointName> = (
  input: EndpointParsedInput<AdminApi[K]>,
  s: AdminServices,
  ctx: AdminRequestContext,
) => Promise<z.input<AdminApi[K]["output"]>> | z.input<AdminApi[K]["output"]>;
