// Zod schemas and types for app API keys. The full key exists only in the create response.
import { z } from "zod";

/** Key format: `pb-` + 32 random bytes in base64url (43 characters); the visible prefix is the first 12 characters
 *  after `pb-`. */
export const KEY_PREFIX_LENGTH = 12;

/** A key as listed: never the secret, never the hash. */
export const KeyInfo = z.object({
  prefix: z.string(),
  app: z.string(),
  label: z.string().max(80).default(""),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable().default(null),
});
export type KeyInfo = z.infer<typeof KeyInfo>;

/**
 * A key as stored on disk: its sha256 (hex) and the `id` of the app it was created for, beside the listed fields.
 * A key verifies only while an app of its name with that id exists, so a key never unlocks a later app that reuses
 * the name (e.g. after apps.json was set aside as corrupt). Records without `appId` (written before it existed) never
 * verify; Patchbay has no released data, so nothing is migrated.
 */
export const KeyRecord = KeyInfo.extend({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  appId: z.string().min(1).optional(),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

/** Create-key response: the only time the full key is returned. */
export const CreatedKey = KeyInfo.extend({ key: z.string() });
export type CreatedKey = z.infer<typeof CreatedKey>;
