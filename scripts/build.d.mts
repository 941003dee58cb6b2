// Types of scripts/build.mjs, for the TypeScript that imports it (tests/build/bundle.test.ts).

/** Each prerendered route's page module, as Vite's build manifest names it. */
export const PAGE_MODULES: Readonly<Record<string, string>>;

/** The JavaScript files a route loads before any interaction, from Vite's build manifest (`assets/…`). */
export function firstLoadChunks(manifest: Record<string, unknown>, route: string, module?: string): string[];

/** The team console's app module, in the console's own build. */
export const TEAM_APP_MODULE: string;

/** The console's prerendered route, `/team`. */
export const TEAM_ROUTE: string;

/** The console's client build (src/main.tsx with `__TEAM_BUILD__` true) into `outDir`; its Vite manifest. */
export function buildTeamClient(options: { outDir: string; logLevel?: 'info' | 'warn' | 'error' | 'silent' }): Promise<Record<string, unknown>>;

/** The prerendered HTML file of a route: `/` → `index.html`, `/terms` → `terms.html`. */
export function htmlFileOf(route: string): string;

/** Builds the site into `outDir` and prerenders it; per route, its first-load JavaScript files. */
export function buildSite(options?: { outDir?: string; logLevel?: 'info' | 'warn' | 'error' | 'silent' }): Promise<{ firstLoad: Record<string, string[]> }>;

/**
 * The chunks a route's entry loader fetches besides the app's: its page chunk and their static imports
 * (`page`, with the app), and the parts the page loads after the load event (`deferred`); URLs (`/assets/…`).
 */
export function routeChunks(manifest: Record<string, unknown>, route: string, module?: string): { page: string[]; deferred: string[] };
