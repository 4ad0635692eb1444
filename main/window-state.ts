// The dashboard window's remembered size/position (and the "still running in the tray" notice flag) in a small
// JSON file in userData. Atomic writes; an unreadable or invalid file just means defaults (it is only UI state).
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import type { Bounds } from "./ports";

const BoundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});

export const WindowState = z.object({
  version: z.literal(1).default(1),
  bounds: BoundsSchema.nullable().default(null),
  maximized: z.boolean().default(false),
  /** The first-close notification ("Patchbay is still running in the tray") was shown. */
  hideNoticeShown: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowState>;

export const DEFAULT_WINDOW_STATE: WindowState = { version: 1, bounds: null, maximized: false, hideNoticeShown: false };

/** File name inside userData. */
export const WINDOW_STATE_FILE = "window-state.json";

/** Loads and saves {@link WindowState} at one path. */
export class WindowStateFile {
  constructor(readonly file: string) {}

  /** The stored state, or defaults when the file is missing, unreadable or invalid. */
  async load(): Promise<WindowState> {
    try {
      const parsed = WindowState.safeParse(JSON.parse(await readFile(this.file, "utf8")));
      return parsed.success ? parsed.data : { ...DEFAULT_WINDOW_STATE };
    } catch {
      return { ...DEFAULT_WINDOW_STATE };
    }
  }

  async save(state: WindowState): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    await writeFileAtomic(this.file, JSON.stringify(WindowState.parse(state), null, 2) + "\n");
  }
}

/** Default dashboard size (DIP). */
export const DEFAULT_SIZE = { width: 1180, height: 780 } as const;
const MIN_VISIBLE = 64;

/**
 * Bounds to open the window with: the remembered ones if at least a grabbable part (64×64 px of the title area)
 * lies on a connected display (monitors get unplugged), clamped to that display's size; else the default size,
 * which the OS centers.
 */
export function restoreBounds(
  saved: Bounds | null,
  workAreas: Bounds[],
): Partial<Bounds> & { width: number; height: number } {
  if (!saved) return { ...DEFAULT_SIZE };
  const area = workAreas.find((a) => overlap(saved, a) >= MIN_VISIBLE);
  if (!area)
    return { width: Math.min(saved.width, DEFAULT_SIZE.width), height: Math.min(saved.height, DEFAULT_SIZE.height) };
  return {
    x: saved.x,
    y: saved.y,
    width: Math.min(saved.width, area.width),
    height: Math.min(saved.height, area.height),
  };
}

/** Overlap of the top strip (title bar) of `b` with area `a`, as the smaller of horizontal and vertical overlap. */
function overlap(b: Bounds, a: Bounds): number {
  const w = Math.min(b.x + b.width, a.x + a.width) - Math.max(b.x, a.x);
  const h = Math.min(b.y + MIN_VISIBLE, a.y + a.height) - Math.max(b.y, a.y);
  return Math.min(w, h);
}
