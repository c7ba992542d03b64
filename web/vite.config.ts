import { defineConfig } from "vitest/config";

// One page (hash routes: #/, #/game/<key>, #/history, #/info/<key>): the server sends the same
// index.html at / and /play, and the hashed bundles under /assets.
export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    target: "es2022",
  },
  server: { proxy: { "/api": "http://127.0.0.1:8000", "/demo": "http://127.0.0.1:8000" } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    testTimeout: 10000,
  },
});
