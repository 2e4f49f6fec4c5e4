import { defineConfig } from "vite";

// `npm run dev` serves the table with hot reload and sends the API calls to a gateway (`make run` starts one on
// 127.0.0.1:8080; TABLETOP_GATEWAY_URL names another). `npm run build` writes dist/, which the gateway serves.
const gateway = process.env.TABLETOP_GATEWAY_URL ?? "http://127.0.0.1:8080";

export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
  server: { host: "127.0.0.1", proxy: { "/tabletop.v1.GameService": gateway } },
});
