// Turns file-system failures of the stores into PatchbayError `storage_error` with a message a user can act on.
// Must not swallow errors or decide on retries; callers decide what to do with the error.
import { PatchbayError } from "../core/errors";

const REASONS: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is exceeded",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted (read-only or protected folder)",
  EROFS: "the file system is read-only",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "the path is a folder, not a file",
  ENOENT: "the folder does not exist",
  EMFILE: "too many open files",
  ELOCKED: "it is locked by another Patchbay process (try again in a moment)",
  ECOMPROMISED: "its lock was lost while writing",
};

/** The `code` of a Node system error (`ENOSPC`, …), else undefined. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === "object" && err !== null && "code" in err && typeof err.code === "string") return err.code;
  return undefined;
}

/** A short human reason for a file-system error, e.g. `the disk is full (ENOSPC)`. */
export function describeFsError(err: unknown): string {
  const code = errnoCode(err);
  if (code !== undefined && code in REASONS) return `${REASONS[code]} (${code})`;
  if (err instanceof Error) return err.message;
  return String(err);
}

/**
 * Wraps a file-system error as PatchbayError `storage_error` (500): `Could not <action> <path>: <reason>`.
 * A PatchbayError passes through unchanged.
 */
export function storageError(action: string, path: string, err: unknown): PatchbayError {
  if (err instanceof PatchbayError) return err;
  return new PatchbayError("storage_error", `Could not ${action} ${path}: ${describeFsError(err)}.`, { cause: err });
}
