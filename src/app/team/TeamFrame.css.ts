import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export { shell, skipLink } from '@/styles/layout.css';


export const header = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: `${vars.space.sm} ${vars.space.lg}`,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  minHeight: vars.headerHeight,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
});

export const brand = style({ fontWeight: 700, marginInlineEnd: 'auto' });

export const navList = style({ display: 'flex', gap: vars.space.md, listStyle: 'none', margin: 0, padding: 0 });

export const navLink = style({
  display: 'inline-block',
  paddingBlock: vars.space.xs,
  color: vars.color.text,
  textDecoration: 'none',
  borderBottom: '2px solid transparent',
  selectors: {
    '&:hover': { color: vars.color.link },
    '&[aria-current="page"]': { borderBottomColor: vars.color.accent, fontWeight: 600 },
  },
});

export const member = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.md, color: vars.color.textMuted });

export const memberName = style({ color: vars.color.text, fontWeight: 600, overflowWrap: 'anywhere' });

export const signOutStatus = style({ flexBasis: '100%', margin: 0, color: vars.color.danger, selectors: { '&:empty': { display: 'none' } } });

export const main = style({
  flex: '1 0 auto',
  width: '100%',
  maxWidth: vars.width.content,
  marginInline: 'auto',
  padding: `${vars.space.xl} ${vars.space.lg}`,
});
