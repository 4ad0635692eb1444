// Low-level access to the request log's JSON-lines files: names, rotation order, and reading lines newest first
// from a sequence-number boundary. Must not know entry fields other than the leading `seq`.
import fs from "node:fs";
import path from "node:path";

const CHUNK = 64 * 1024;
const SEQ_AT_START = /^\{"seq":(\d+)[,}]/;

/** Path of log file `index` (0 = the file being written, 1 = the most recently rotated, …). */
export function logFilePath(dir: string, index: number): string {
  return path.join(dir, index === 0 ? "requests.jsonl" : `requests.${index}.jsonl`);
}

/** The `seq` a line starts with (every line Patchbay writes starts with it), else null. */
export function seqOfLine(line: string): number | null {
  const m = SEQ_AT_START.exec(line);
  return m ? Number(m[1]) : null;
}

/** Reads the line that starts at byte `start` (up to the next newline or `size`). */
function readLineAt(fd: number, start: number, size: number): { line: string; end: number } {
  const parts: Buffer[] = [];
  let pos = start;
  while (pos < size) {
    const buf = Buffer.alloc(Math.min(CHUNK, size - pos));
    const n = fs.readSync(fd, buf, 0, buf.length, pos);
    if (n <= 0) break;
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl >= 0) {
      parts.push(buf.subarray(0, nl));
      return { line: Buffer.concat(parts).toString("utf8"), end: pos + nl + 1 };
    }
    parts.push(buf.subarray(0, n));
    pos += n;
  }
  return { line: Buffer.concat(parts).toString("utf8"), end: size };
}

/** Start of the first line beginning at or after byte `pos`. */
function lineStartFrom(fd: number, pos: number, size: number): number {
  if (pos <= 0) return 0;
  // The line containing byte pos-1 ends at the next newline; the line after it starts there.
  return readLineAt(fd, pos - 1, size).end;
}

/** Seq of the first parseable line starting at or after `pos` (Infinity at end of file). */
function seqFrom(fd: number, pos: number, size: number): number {
  let start = lineStartFrom(fd, pos, size);
  while (start < size) {
    const { line, end } = readLineAt(fd, start, size);
    const seq = seqOfLine(line);
    if (seq !== null) return seq;
    start = end;
  }
  return Infinity;
}

/**
 * Byte offset where the lines with `seq >= boundary` begin (binary search; seq grows line by line within a file).
 * Everything before the offset is older than `boundary`.
 */
export function offsetOfBoundary(fd: number, size: number, boundary: number): number {
  if (!Number.isFinite(boundary)) return size;
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (seqFrom(fd, mid, size) >= boundary) hi = mid;
    else lo = mid + 1;
  }
  return lineStartFrom(fd, lo, size);
}

/**
 * Lines of `file` whose seq is below `boundary`, newest first, read backwards in chunks (synchronous: the request
 * log's query API is synchronous; callers bound the bytes read). `onBytes` reports bytes read for budgeting.
 */
export function* linesBefore(file: string, boundary: number, onBytes: (n: number) => void): Generator<string> {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return;
  }
  try {
    const size = fs.fstatSync(fd).size;
    let end = offsetOfBoundary(fd, size, boundary);
    let carry: Buffer = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      const buf = Buffer.alloc(end - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      onBytes(buf.length);
      let data = Buffer.concat([buf, carry]);
      let nl = data.lastIndexOf(10, data.length - 1);
      // A trailing newline ends the last line; it does not start an empty one.
      if (nl === data.length - 1 && carry.length === 0) {
        data = data.subarray(0, data.length - 1);
        nl = data.lastIndexOf(10);
      }
      while (nl >= 0) {
        const line = data.subarray(nl + 1).toString("utf8");
        if (line.length > 0) yield line;
        data = data.subarray(0, nl);
        nl = data.lastIndexOf(10);
      }
      carry = Buffer.from(data);
      end = start;
    }
    if (carry.length > 0) yield carry.toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}
