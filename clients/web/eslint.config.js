// `npm run lint`: ESLint's and typescript-eslint's recommended rules over the page's code and its tests.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "src/gen/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["tests/**/*.mjs", "*.js"],
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly", document: "readonly",
      navigator: "readonly", location: "readonly", fetch: "readonly", setTimeout: "readonly",
      getComputedStyle: "readonly", sessionStorage: "readonly", localStorage: "readonly", window: "readonly" } },
  },
);
