import { assignVars, createGlobalTheme, createGlobalThemeContract, globalStyle } from '@vanilla-extract/css';

/** Design tokens. Colours differ between light and dark schemes, so they sit behind a contract. */
export const vars = createGlobalThemeContract({
  color: {
    background: 'color-background',
    surface: 'color-surface',
    surfaceRaised: 'color-surface-raised',
    text: 'color-text',
    textMuted: 'color-text-muted',
    border: 'color-border',
    accent: 'color-accent',
    accentText: 'color-accent-text',
    link: 'color-link',
    focus: 'color-focus',
    danger: 'color-danger',
    dangerSurface: 'color-danger-surface',
    success: 'color-success',
  },
  font: { body: 'font-body', mono: 'font-mono' },
  space: { xs: 'space-xs', sm: 'space-sm', md: 'space-md', lg: 'space-lg', xl: 'space-xl', xxl: 'space-xxl' },
  radius: { sm: 'radius-sm', md: 'radius-md', lg: 'radius-lg' },
  width: { content: 'width-content', prose: 'width-prose' },
  headerHeight: 'header-height',
});

// Contrast: every text/background pair below is at least 4.5:1 (WCAG 2.2 AA), checked by axe in tests/e2e.
const light = {
  background: '#ffffff',
  surface: '#f5f7fb',
  surfaceRaised: '#ffffff',
  text: '#0f172a',
  textMuted: '#475569',
  border: '#cbd5e1',
  accent: '#1d4ed8',
  accentText: '#ffffff',
  link: '#1d4ed8',
  focus: '#c2410c',
  danger: '#b91c1c',
  dangerSurface: '#fef2f2',
  success: '#166534',
};

const dark: typeof light = {
  background: '#0b1120',
  surface: '#111a2e',
  surfaceRaised: '#17223a',
  text: '#e2e8f0',
  textMuted: '#a5b4c8',
  border: '#334155',
  accent: '#93c5fd',
  accentText: '#0b1120',
  link: '#93c5fd',
  focus: '#fdba74',
  danger: '#fca5a5',
  dangerSurface: '#3b1212',
  success: '#86efac',
};

createGlobalTheme(':root', vars, {
  color: light,
  // System font stacks: nothing to download, so no layout shift and no request to a font CDN.
  font: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  space: { xs: '0.25rem', sm: '0.5rem', md: '1rem', lg: '1.5rem', xl: '2.5rem', xxl: '4rem' },
  radius: { sm: '4px', md: '8px', lg: '14px' },
  width: { content: '72rem', prose: '44rem' },
  headerHeight: '4rem',
});

globalStyle(':root', {
  '@media': {
    '(prefers-color-scheme: dark)': { vars: assignVars(vars.color, dark) },
  },
});
