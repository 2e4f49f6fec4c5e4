import { defineConfig } from "vitest/config";

// `npm test`: the page's own code, without a browser or a server (tests/unit); the browser tests are tests/*.mjs.
export default defineConfig({
  test: { include: ["tests/unit/**/*.test.ts"], environment: "node" },
});
