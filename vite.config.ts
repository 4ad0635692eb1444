// Vite build of the dashboard: root renderer/, output dist/renderer (served by the admin listener).
// Dev server: set PATCHBAY_ADMIN_URL and PATCHBAY_ADMIN_TOKEN to proxy /admin/api to a running Patchbay.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const adminUrl = process.env.PATCHBAY_ADMIN_URL;
const adminToken = process.env.PATCHBAY_ADMIN_TOKEN ?? "";

export default defineConfig({
  root: fileURLToPath(new URL("./renderer", import.meta.url)),
  base: "/",
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL("./dist/renderer", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
  server: adminUrl
    ? {
        proxy: {
          // The admin listener checks Host and Origin: present ourselves as its own origin, authenticated by Bearer.
          "/admin/api": {
            target: adminUrl,
            changeOrigin: true,
            headers: { origin: adminUrl, authorization: `Bearer ${adminToken}` },
          },
        },
      }
    : {},
});
