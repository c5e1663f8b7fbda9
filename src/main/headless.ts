/**
 * Entry of `patterm mcp`'s bundle (bundles.ts HEADLESS_ENTRY): the headless
 * host and everything it runs. It sits beside app.ts because a bundle finds
 * the package's files from its own depth (src/node/package-root.ts).
 */
export { runHeadless } from './hosts/headless-host.js';
