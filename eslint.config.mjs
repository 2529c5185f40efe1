// ESLint flat config (ESLint 9, typescript-eslint): `npm run lint` runs it over src/, test/, testkit/, bench/, scripts/, bin/.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The Node.js globals the CommonJS .js files (bin/, scripts/, test helpers) use.
const nodeGlobals = Object.fromEntries(
  [
    "require",
    "module",
    "exports",
    "__dirname",
    "__filename",
    "process",
    "console",
    "Buffer",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "setImmediate",
    "URL",
  ].map((name) => [name, "readonly"]),
);

export default tseslint.config(
  {
    // An eslint-disable comment that suppresses nothing fails the lint: each one that remains is needed.
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    ignores: ["**/node_modules/", "dist/", "artifacts/", "cache/", "typechain-types/", "coverage/", "snapshots/"],
  },
  {
    files: ["src/**/*.ts", "test/**/*.ts", "testkit/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // A leading underscore marks a binding left unused on purpose (a destructured field left out of a rest, say).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // The input checks and the tests match control characters on purpose (note text, terminal escapes).
      "no-control-regex": "off",
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      // chai's property assertions (`expect(x).to.be.true`, `.that.is.not.empty`) are expressions by design.
      "@typescript-eslint/no-unused-expressions": "off",
    },
  },
  {
    files: ["bin/**/*.js", "scripts/**/*.js", "test/**/*.js"],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: "commonjs", globals: nodeGlobals },
  },
);
