// Types of scripts/serverBundle.mjs, for the TypeScript that imports it (tests/support/globalSetup.ts).

/** Where `npm run build` writes the server's and the command line's bundles: `build/server`, outside `dist/`. */
export const SERVER_BUILD_DIR: string;

/**
 * Bundles server/main.ts and server/cli/main.ts into `outDir` (`server.mjs`, `cli.mjs`, source maps, and
 * the migrator's SQL beside them), for plain node; their absolute paths.
 */
export function bundleServer(outDir: string): Promise<{ server: string; cli: string }>;
