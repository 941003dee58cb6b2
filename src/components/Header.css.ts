import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const header = style({
  position: 'sticky',
  top: 0,
  zIndex: 10,
  background: vars.color.background,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const inner = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  minHeight: vars.headerHeight,
  '@media': { 'screen and (min-width: 30rem)': { gap: vars.space.md } },
});

export const brand = style({
  fontWeight: 800,
  fontSize: '1.25rem',
  color: vars.color.text,
  textDecoration: 'none',
  marginInlineEnd: 'auto',
});

export const navList = style({
  display: 'flex',
  gap: vars.space.sm,
  listStyle: 'none',
  margin: 0,
  padding: 0,
  '@media': { 'screen and (min-width: 30rem)': { gap: vars.space.md } },
});

export const navLink = style({
  color: vars.color.text,
  textDecoration: 'none',
  display: 'inline-block',
  paddingBlock: vars.space.sm,
  selectors: { '&:hover': { textDecoration: 'underline' } },
});

export const cta = style({
  paddingInline: vars.space.sm,
  minHeight: '2.5rem',
  fontSize: '0.9375rem',
  '@media': { 'screen and (min-width: 30rem)': { paddingInline: vars.space.md } },
});
