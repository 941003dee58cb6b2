// Imported by scripts/build.mjs as well as by the site: no import of its own.

/**
 * The attribute of a prerendered control that works before its part of the page hydrates. It is
 * rendered `disabled`, so that without JavaScript it does nothing; the page's entry loader, the first
 * script a page runs (scripts/build.mjs), enables it as the page paints, and the part keeps what the
 * visitor did with it once it hydrates (src/hooks/useChangeBeforeHydration.ts). Rendered with
 * `suppressHydrationWarning`: its `disabled` attribute is the loader's by then, not the prerender's.
 *
 * Today: the cost estimator's slider (src/components/Estimator.tsx), which on a slow phone hydrates
 * seconds after the page has painted.
 */
export const ENABLED_BEFORE_HYDRATION = 'data-enabled-before-hydration';
