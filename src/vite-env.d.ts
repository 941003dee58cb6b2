/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUBMIT_ENDPOINT?: string;
  readonly VITE_IP_LOOKUP_URL?: string;
  readonly VITE_POSTHOG_KEY?: string;
  readonly VITE_POSTHOG_HOST?: string;
  readonly VITE_INSPECT?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** Defined in vite.config.ts: the year of the build. */
declare const __BUILD_YEAR__: number;

/** Defined in vite.config.ts (false) and by scripts/build.mjs for the console's build (true): whether this build is the team console's. */
declare const __TEAM_BUILD__: boolean;
