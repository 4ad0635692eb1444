// Schemas of the "set up a coding agent" admin rows (`/admin/api/connect/:client/…`): which clients can be set up,
// and what a preview, an apply, an undo and a verify answer. No Node, no DOM.
import { z } from "zod";

/** Coding agents whose own config file Patchbay can write (`patchbay connect`, the dashboard's Set up dialog). */
export const CONNECT_CLIENT_IDS = ["claude-code", "codex", "claude-desktop"] as const;
/** One of {@link CONNECT_CLIENT_IDS}. */
export const ConnectClientId = z.enum(CONNECT_CLIENT_IDS);
export type ConnectClientId = z.infer<typeof ConnectClientId>;

/** Display names of the clients, for the dashboard and the tray. */
export const CONNECT_CLIENT_NAMES: Readonly<Record<ConnectClientId, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  "claude-desktop": "Claude Desktop",
};

/** `:client` path parameter. */
export const ConnectParams = z.strictObject({ client: ConnectClientId });

/** Body of preview and apply: the model to write (default: the app's `default` alias, else the first model). */
export const ConnectBody = z.strictObject({
  model: z.string().trim().min(1).max(200).optional(),
});
export type ConnectBody = z.infer<typeof ConnectBody>;

/** A second file connect writes with the config file, which names it (Codex's model catalog). */
export const ConnectCompanion = z.object({
  /** What it is (`Codex's model catalog`). */
  what: z.string(),
  path: z.string(),
  /** It would change / it changed (false: it already holds this text). */
  changed: z.boolean(),
});
export type ConnectCompanion = z.infer<typeof ConnectCompanion>;

/** What `connect` would change (nothing is written). */
export const ConnectPreview = z.object({
  client: ConnectClientId,
  /** The client's config file. */
  path: z.string(),
  /** The file exists now. */
  exists: z.boolean(),
  /** Applying would change the file (false: it already has these settings). */
  changed: z.boolean(),
  /** Unified diff of the change ("" when unchanged). The key is shown as `pb-…` only. */
  diff: z.string(),
  model: z.string(),
  /** The app whose key and models the client gets (made on first use; by default named after the client). */
  app: z.string(),
  /** A backup of the original from an earlier connect, kept until undo (null: none yet). */
  backup: z.string().nullable(),
  /** The companion file written too (not diffed: Patchbay owns it whole). */
  companion: ConnectCompanion.optional(),
  /** What the user should know about the settings it would write (see ConnectApplyResult). */
  notes: z.array(z.string()).optional(),
});
export type ConnectPreview = z.infer<typeof ConnectPreview>;

/** What `connect` changed. */
export const ConnectApplyResult = z.object({
  client: ConnectClientId,
  path: z.string(),
  changed: z.boolean(),
  model: z.string(),
  /** Where the original is kept for undo (null when there was no original file). */
  backup: z.string().nullable(),
  /** The command that undoes it on this machine (`patchbay [--data-dir …] connect claude --undo`). */
  undo: z.string(),
  /** The file's permission bits before connect made it 0600 (it holds the key); null/absent when unchanged. */
  tightenedFrom: z.number().int().nullable().optional(),
  /** The companion file written too. */
  companion: ConnectCompanion.optional(),
  /** What the user should know about the written settings (e.g. a port that changes on the next start). */
  notes: z.array(z.string()).optional(),
});
export type ConnectApplyResult = z.infer<typeof ConnectApplyResult>;

/** What `connect --undo` did: restored the original, removed a file that did not exist before, removed Patchbay's
 *  entries (no backup known), or nothing (not connected). */
export const ConnectUndoResult = z.object({
  client: ConnectClientId,
  path: z.string(),
  action: z.enum(["restored", "removed", "unmerged", "nothing"]),
  /** The file as it was before undo, saved here: it had been edited since connect, or (`unmerged`) no backup of the
   *  original was found, so the values Patchbay's settings replaced cannot be restored from it. */
  savedCurrent: z.string().nullable(),
  /** `unmerged`: nothing but Patchbay's settings was in the file, so it was removed. */
  emptied: z.boolean().optional(),
  /** Prefix of the Patchbay key the file held (as key lists show it, without `pb-`): undo revokes nothing. */
  keyPrefix: z.string().optional(),
  /** What undo did to the companion file (restored before the first connect, removed, or nothing). */
  companion: z
    .object({
      path: z.string(),
      action: z.enum(["restored", "removed", "unmerged", "nothing"]),
      savedCurrent: z.string().nullable(),
      emptied: z.boolean().optional(),
    })
    .optional(),
});
export type ConnectUndoResult = z.infer<typeof ConnectUndoResult>;

/** One real request in the client's wire through Patchbay with the settings in the client's config file. */
export const ConnectVerifyResult = z.object({
  client: ConnectClientId,
  ok: z.boolean(),
  /** `POST http://…/v1/messages` or `/v1/responses`. */
  request: z.string(),
  /** HTTP status, null when no answer. */
  status: z.number().int().nullable(),
  /** What happened, in one sentence. */
  message: z.string(),
  /** How to fix it (null when ok). */
  hint: z.string().nullable(),
});
export type ConnectVerifyResult = z.infer<typeof ConnectVerifyResult>;
