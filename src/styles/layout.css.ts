import { style } from '@vanilla-extract/css';
import { vars } from './theme.css';

/** Centred column that holds every section's content, 320 px to 1440 px wide. */
export const container = style({
  width: '100%',
  maxWidth: vars.width.content,
  marginInline: 'auto',
  paddingInline: vars.space.md,
  '@media': { 'screen and (min-width: 48rem)': { paddingInline: vars.space.lg } },
});

export const section = style({
  paddingBlock: vars.space.xl,
  '@media': { 'screen and (min-width: 48rem)': { paddingBlock: vars.space.xxl } },
});

export const sectionAlt = style([section, { background: vars.color.surface }]);

export const sectionTitle = style({
  fontSize: 'clamp(1.5rem, 1.2rem + 1.5vw, 2.25rem)',
  margin: `0 0 ${vars.space.md}`,
});

export const lede = style({
  color: vars.color.textMuted,
  fontSize: '1.125rem',
  maxWidth: vars.width.prose,
  margin: `0 0 ${vars.space.lg}`,
});

/** Long-form text (legal pages). */
export const prose = style({ maxWidth: vars.width.prose });

export const pageTitle = style({
  fontSize: 'clamp(1.75rem, 1.3rem + 2vw, 2.75rem)',
  margin: `0 0 ${vars.space.sm}`,
});

/** A page's frame, the site's and the team console's: a column at least as tall as the window. */
export const shell = style({ display: 'flex', flexDirection: 'column', minHeight: '100vh' });

/** The "Skip to content" link of every frame: off screen until it has the focus. */
export const skipLink = style({
  position: 'absolute',
  left: vars.space.sm,
  top: vars.space.sm,
  zIndex: 100,
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.accent,
  color: vars.color.accentText,
  borderRadius: vars.radius.sm,
  transform: 'translateY(-200%)',
  selectors: { '&:focus': { transform: 'none' } },
});
