/** The site's colour palettes (light and dark scheme), also used by the build's share image and web manifest. */
// Contrast: every text/background pair below is at least 4.5:1 (WCAG 2.2 AA), checked by axe in tests/e2e.
export const light = {
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
  successSurface: '#f0fdf4',
  warning: '#92400e',
  warningSurface: '#fffbeb',
};

export const dark: typeof light = {
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
  successSurface: '#0f2a1a',
  warning: '#fcd34d',
  warningSurface: '#3a2a05',
};

