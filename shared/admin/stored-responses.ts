// Zod schemas of the admin API's stored-Responses rows: the app's stored responses (newest first) and one response
// with the whole conversation the model saw. Shared by the server and the dashboard. No Node, no DOM.
import { z } from "zod";
import { AppName } from "../apps";

/** `:name/:id` of one stored response. */
export const StoredResponseParams = z.strictObject({
  name: AppName,
  id: z.string().regex(/^resp_[0-9a-f]{32}$/, "Use a response id (resp_…)"),
});

/** `GET /admin/api/apps/:name/responses`: newest first; `before` is the last id of the previous page. */
export const StoredResponseListQuery = z.strictObject({
  before: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** One row of the list. Times are epoch ms. `error` is set (and the other fields empty) for a damaged record. */
export const StoredResponseSummary = z.object({
  id: z.string(),
  createdAt: z.number(),
  model: z.string().nullable(),
  status: z.string().nullable(),
  previousResponseId: z.string().nullable(),
  sessionId: z.string().nullable(),
  /** Items of the effective input / of the output. */
  inputItems: z.number().int(),
  outputItems: z.number().int(),
  /** The last user text of the input, shortened (for the list). */
  preview: z.string(),
  error: z.string().nullable(),
});
export type StoredResponseSummary = z.infer<typeof StoredResponseSummary>;

/** A page of stored responses; `nextBefore` leads to older ones (null: none). `total` counts the app's responses. */
export const StoredResponsePage = z.object({
  responses: z.array(StoredResponseSummary),
  nextBefore: z.string().nullable(),
  total: z.number().int(),
});
export type StoredResponsePage = z.infer<typeof StoredResponsePage>;

/** One stored response: the whole conversation the model saw (`input`, with `instructions` apart) and its output. */
export const StoredResponseDetail = z.object({
  id: z.string(),
  createdAt: z.number(),
  sessionId: z.string().nullable(),
  previousResponseId: z.string().nullable(),
  model: z.string(),
  status: z.string(),
  instructions: z.string().nullable(),
  input: z.array(z.looseObject({ id: z.string(), type: z.string() })),
  output: z.array(z.looseObject({ id: z.string(), type: z.string() })),
  usage: z.unknown(),
});
export type StoredResponseDetail = z.infer<typeof StoredResponseDetail>;
