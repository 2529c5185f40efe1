// `@attestation-registry/sdk/internal`: the SDK's modules that the CLI of this repository uses and the public API
// (`src/index.ts`) does not export. Not a public API: no semver promise, no docs beyond this list. The CLI imports
// them from here, by the package's name, so that there is one copy of each (docs/library.md, "How the CLI and the
// service import the SDK").

export { toRegistryError } from "./actions/internal/toRegistryError";
export { assertPrivateKey } from "./lib/internal/assertPrivateKey";
export type { VerifyBackend, VerifyBackendSetting } from "./lib/internal/recoverBackend";
