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

/** A key as stored on disk: its sha256 (hex) beside the listed fields. */
export const KeyRecord = KeyInfo.extend({ sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export type KeyRecord = z.infer<typeof KeyRecord>;

/** Create-key response: the only time the full key is returned. */
export const CreatedKey = KeyInfo.extend({ key: z.string() });
export type CreatedKey = z.infer<typeof CreatedKey>;
