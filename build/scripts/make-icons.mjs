// Generates Patchbay's app and tray icons as PNGs (pngjs): a patch-bay glyph, three jacks with a cable patched
// between the outer two. Deterministic; the output is committed. Run after changing the drawing:
//   node build/scripts/make-icons.mjs
// Output: build/icon.png (1024², electron-builder derives .icns/.ico from it), build/icons/<n>x<n>.png (Linux),
// build/tray/<state>-{light,dark}[@2x].png and build/tray/<state>Template[@2x].png (macOS template images).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PNG } from "pngjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export const APP_ICON_SIZES = [16, 32, 48, 64, 128, 256, 512];
export const TRAY_STATES = ["running", "stopped", "starting", "error"];

// ---- tiny signed-distance rasterizer (coordinates in the unit square, y down) ----

const sdCircle = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
const sdRing = (cx, cy, r, w) => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) - w / 2;
const sdRoundRect = (x0, y0, x1, y1, r) => (x, y) => {
  const cx = (x0 + x1) / 2,
    cy = (y0 + y1) / 2,
    hx = (x1 - x0) / 2 - r,
    hy = (y1 - y0) / 2 - r;
  const qx = Math.abs(x - cx) - hx,
    qy = Math.abs(y - cy) - hy;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};

/** A cubic Bézier as a polyline with cumulative arc length (for dashes). */
function bezier(p0, p1, p2, p3, n = 96) {
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n,
      u = 1 - t;
    pts.push([
      u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
      u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    ]);
  }
  return pts;
}

/** Stroke of a polyline with width w; `dash` = [on, off] in unit lengths (round caps either way). */
function sdStroke(pts, w, dash = null) {
  const segs = [];
  let len = 0;
  for (let i = 1; i < pts.length; i++) {
    const [ax, ay] = pts[i - 1],
      [bx, by] = pts[i];
    const l = Math.hypot(bx - ax, by - ay);
    segs.push({ ax, ay, bx, by, l, s0: len });
    len += l;
  }
  const minX = Math.min(...pts.map((p) => p[0])) - w,
    maxX = Math.max(...pts.map((p) => p[0])) + w;
  const minY = Math.min(...pts.map((p) => p[1])) - w,
    maxY = Math.max(...pts.map((p) => p[1])) + w;
  return (x, y) => {
    if (x < minX - 0.05 || x > maxX + 0.05 || y < minY - 0.05 || y > maxY + 0.05) return 1;
    let best = Infinity;
    for (const s of segs) {
      const dx = s.bx - s.ax,
        dy = s.by - s.ay;
      let t = s.l === 0 ? 0 : ((x - s.ax) * dx + (y - s.ay) * dy) / (s.l * s.l);
      t = Math.max(0, Math.min(1, t));
      const along = s.s0 + t * s.l;
      if (dash) {
        const period = dash[0] + dash[1];
        const phase = along % period;
        if (phase > dash[0]) continue; // in a gap: the caps of neighbouring dashes still cover their ends
      }
      const d = Math.hypot(x - (s.ax + t * dx), y - (s.ay + t * dy));
      if (d < best) best = d;
    }
    return best - w / 2;
  };
}

const union =
  (...fs) =>
  (x, y) =>
    Math.min(...fs.map((f) => f(x, y)));

/** Renders layers onto a size² RGBA canvas. Layer: {sd, color: [r,g,b,a] | (x,y)=>[r,g,b,a]} or {sd, erase:true}. */
function render(size, layers) {
  const png = new PNG({ width: size, height: size });
  const px = 1 / size;
  // 3×3 supersampling on top of the analytic edge keeps 16 px glyphs crisp without jaggies.
  const offs = size <= 64 ? [-1 / 3, 0, 1 / 3] : [0];
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (const oy of offs) {
        for (const ox of offs) {
          const x = (i + 0.5 + ox) * px,
            y = (j + 0.5 + oy) * px;
          let cr = 0,
            cg = 0,
            cb = 0,
            ca = 0;
          for (const layer of layers) {
            const cov = Math.max(0, Math.min(1, 0.5 - layer.sd(x, y) / px));
            if (cov === 0) continue;
            if (layer.erase) {
              ca *= 1 - cov;
              continue;
            }
            const [lr, lg, lb, la] = typeof layer.color === "function" ? layer.color(x, y) : layer.color;
            const sa = (la / 255) * cov;
            const oa = sa + ca * (1 - sa);
            if (oa > 0) {
              cr = (lr * sa + cr * ca * (1 - sa)) / oa;
              cg = (lg * sa + cg * ca * (1 - sa)) / oa;
              cb = (lb * sa + cb * ca * (1 - sa)) / oa;
            }
            ca = oa;
          }
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const n = offs.length * offs.length;
      const idx = (j * size + i) * 4;
      png.data[idx] = a > 0 ? Math.round(r / a) : 0;
      png.data[idx + 1] = a > 0 ? Math.round(g / a) : 0;
      png.data[idx + 2] = a > 0 ? Math.round(b / a) : 0;
      png.data[idx + 3] = Math.round((a / n) * 255);
    }
  }
  return PNG.sync.write(png, { colorType: 6 });
}

const hex = (h, a = 255) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16), a];

// ---- the app icon ----

export function appIconLayers() {
  const jackY = 0.36;
  const jacks = [0.26, 0.5, 0.74];
  const cable = bezier([0.26, jackY + 0.06], [0.24, 0.98], [0.76, 0.98], [0.74, jackY + 0.06]);
  // Rounded-square tile with a top-to-bottom slate gradient.
  const layers = [
    {
      sd: sdRoundRect(0.04, 0.04, 0.96, 0.96, 0.2),
      color: (_x, y) => [Math.round(30 - 15 * y), Math.round(41 - 18 * y), Math.round(59 - 17 * y), 255],
    },
  ];
  // Panel strip holding the jacks.
  layers.push({ sd: sdRoundRect(0.12, 0.24, 0.88, 0.48, 0.07), color: hex("#334155") });
  for (const x of jacks) {
    layers.push({ sd: sdCircle(x, jackY, 0.085), color: hex("#e2e8f0") });
    layers.push({ sd: sdCircle(x, jackY, 0.05), color: hex("#0f172a") });
  }
  // Cable with plugs seated in the outer jacks.
  layers.push({ sd: sdStroke(cable, 0.075), color: hex("#f59e0b") });
  for (const x of [0.26, 0.74]) {
    layers.push({ sd: sdRoundRect(x - 0.045, jackY - 0.01, x + 0.045, jackY + 0.11, 0.02), color: hex("#d97706") });
    layers.push({ sd: sdCircle(x, jackY, 0.028), color: hex("#fde68a") });
  }
  return layers;
}

// ---- tray glyphs ----

// Darker shades on light panels keep contrast.
const STATE_COLORS = {
  running: "#22c55e",
  runningOnLight: "#15803d",
  starting: "#f59e0b",
  startingOnLight: "#b45309",
  error: "#ef4444",
  errorOnLight: "#dc2626",
};

/**
 * The tray glyph for a state: two jacks plus a state-specific "signal" part (patched cable, dashed cable while
 * starting, unplugged cable end when stopped, a cross on error). Shapes differ per state so monochrome template
 * icons still tell the states apart; the colored variants also tint the signal part.
 */
export function trayGlyph(state) {
  const jacks = union(sdRing(0.24, 0.3, 0.15, 0.09), sdRing(0.76, 0.3, 0.15, 0.09));
  const cable = bezier([0.24, 0.45], [0.22, 0.98], [0.78, 0.98], [0.76, 0.45], 48);
  let signal;
  if (state === "running") signal = sdStroke(cable, 0.11);
  else if (state === "starting") signal = sdStroke(cable, 0.11, [0.14, 0.12]);
  else if (state === "stopped")
    signal = sdStroke(bezier([0.24, 0.45], [0.23, 0.7], [0.3, 0.82], [0.4, 0.86], 24), 0.11);
  else
    signal = union(
      sdStroke(
        [
          [0.37, 0.56],
          [0.63, 0.88],
        ],
        0.12,
      ),
      sdStroke(
        [
          [0.63, 0.56],
          [0.37, 0.88],
        ],
        0.12,
      ),
    );
  return { jacks, signal };
}

export function trayLayers(state, variant) {
  const { jacks, signal } = trayGlyph(state);
  if (variant === "template") return [{ sd: union(jacks, signal), color: [0, 0, 0, 255] }];
  const ink = variant === "dark" ? hex("#f1f5f9") : hex("#1e293b");
  // Stopped stays neutral (ink); the other states tint the signal part.
  const tint =
    state === "stopped"
      ? ink
      : hex(STATE_COLORS[variant === "dark" ? state : `${state}OnLight`] ?? STATE_COLORS[state]);
  return [
    { sd: jacks, color: ink },
    { sd: signal, color: tint },
  ];
}

/** Every file this script writes, relative to build/: [file, size, kind, state?, variant?]. */
export function iconPlan() {
  const plan = [["icon.png", 1024, "app"]];
  for (const n of APP_ICON_SIZES) plan.push([`icons/${n}x${n}.png`, n, "app"]);
  for (const state of TRAY_STATES) {
    for (const [suffix, scale] of [
      ["", 1],
      ["@2x", 2],
    ]) {
      plan.push([`tray/${state}Template${suffix}.png`, 16 * scale, "tray", state, "template"]);
      plan.push([`tray/${state}-light${suffix}.png`, 16 * scale, "tray", state, "light"]);
      plan.push([`tray/${state}-dark${suffix}.png`, 16 * scale, "tray", state, "dark"]);
    }
  }
  return plan;
}

/** Writes all icons under `outDir` (default build/). */
export async function makeIcons(outDir = path.join(ROOT, "build")) {
  for (const [file, size, kind, state, variant] of iconPlan()) {
    const buf = kind === "app" ? render(size, appIconLayers()) : render(size, trayLayers(state, variant));
    await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
    await writeFile(path.join(outDir, file), buf);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  makeIcons().then(
    () => console.log(`Wrote ${iconPlan().length} icons under build/`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
