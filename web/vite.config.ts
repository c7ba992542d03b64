import { defineConfig } from "vitest/config";

// Two pages: the players' (hash routes: #/, #/game/<key>, #/history, #/info/<key>; the server
// sends the same index.html at / and /play) and the back office's (backoffice.html, served at
// /backoffice); their hashed bundles under /assets.
export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: { input: { main: "index.html", backoffice: "backoffice.html" } },
    target: "es2022",
  },
  server: { proxy: { "/api": "http://127.0.0.1:8000", "/demo": "http://127.0.0.1:8000",
    "/backoffice/api": "http://127.0.0.1:8000" } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    testTimeout: 10000,
  },
});
