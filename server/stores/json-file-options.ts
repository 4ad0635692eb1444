// The options of a JSON file store (where, which format, modes, watching, how a bad file is treated) and the
// default atomic writer.
import writeFileAtomic from "write-file-atomic";
import type { VersionedFormat } from "./json-file-disk";

/** Writes `text` to `file` atomically (temp file + rename) with `mode`. Injectable so tests can simulate ENOSPC. */
export type AtomicWriter = (file: string, text: string, options: { mode: number }) => Promise<void>;

/** Options of {@link JsonFileStore.open}. */
export interface JsonFileOptions<T> extends VersionedFormat<T> {
  /** Absolute path of the JSON file. Its folder is created (with `dirMode`) when missing. */
  file: string;
  /** Fresh default data (a new object on every call). */
  defaults: () => T;
  /** File mode (default 0o600: only the user reads Patchbay's data). */
  mode?: number;
  /** Mode of the folder when this store creates it (default 0o700). */
  dirMode?: number;
  /** Watch the folder for changes by other processes (default true; the mtime check on read works regardless). */
  watch?: boolean;
  /** Minimum ms between on-read checks for external changes (default 1000). */
  recheckMs?: number;
  /** Default: write-file-atomic with fsync. */
  writeFile?: AtomicWriter;
  /** Wall clock for backup names (epoch ms). */
  clock?: () => number;
  /** How long a file that does not parse (or vanished) is given to settle before it counts as invalid (ms, default
   *  250). Editors often write in two steps or truncate first; one bad read must not count. */
  settleMs?: number;
  /** What `open` does with a file that does not parse: `set-aside` (default: keep it as `<file>.corrupt-<time>` and
   *  start from defaults) or `keep` (leave it in place, use defaults in memory and refuse writes until it is fixed;
   *  for short-lived openers such as the CLI, which must not move a file a running server may be reading). */
  onInvalid?: "set-aside" | "keep";
  /** Told every new notice (e.g. to log it); notices() lists them too. */
  onNotice?: (message: string) => void;
}

/** A change function: mutate `draft` in place or return the next value. May throw (e.g. PatchbayError). */
export type Mutator<T> = (draft: T) => T | void | Promise<T | void>;

/** write-file-atomic with fsync. */
export const defaultWriter: AtomicWriter = (file, text, { mode }) => writeFileAtomic(file, text, { mode, fsync: true });
