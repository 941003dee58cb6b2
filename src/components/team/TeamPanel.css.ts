import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

/** The sign-in and enrollment screens: one narrow column. */
export const panel = style({ maxWidth: vars.width.prose, marginInline: 'auto', display: 'grid', gap: vars.space.md });

export const title = style({ fontSize: '1.75rem', margin: 0 });

export const text = style({ margin: 0, color: vars.color.textMuted });

export const command = style({
  fontFamily: vars.font.mono,
  fontSize: '0.9em',
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  overflowWrap: 'anywhere',
});

/** The live region: empty, it takes no room. */
export const status = style({ margin: 0, minHeight: '1.5em', color: vars.color.text, fontWeight: 500 });

export const action = style({ justifySelf: 'start' });
