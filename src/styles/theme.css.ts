import { assignVars, createGlobalTheme, createGlobalThemeContract, globalStyle } from '@vanilla-extract/css';
import { dark, light } from './palette';

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
    successSurface: 'color-success-surface',
    warning: 'color-warning',
    warningSurface: 'color-warning-surface',
  },
  font: { body: 'font-body', mono: 'font-mono' },
  space: { xs: 'space-xs', sm: 'space-sm', md: 'space-md', lg: 'space-lg', xl: 'space-xl', xxl: 'space-xxl' },
  radius: { sm: 'radius-sm', md: 'radius-md', lg: 'radius-lg' },
  width: { content: 'width-content', prose: 'width-prose' },
  headerHeight: 'header-height',
});

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
