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

/**
 * The page. What a requester typed is shown as typed, and may be one word hundreds of characters long (a
 * name, a company, a URL): `overflow-wrap: anywhere`, inherited by everything inside, breaks such a word
 * wherever the line ends, and lets grid, flex and table tracks shrink below it (it lowers the min-content
 * size, which `break-word` does not), so no page of the console scrolls sideways.
 */
export const main = style({
  flex: '1 0 auto',
  width: '100%',
  minWidth: 0,
  maxWidth: vars.width.content,
  marginInline: 'auto',
  padding: `${vars.space.xl} ${vars.space.lg}`,
  overflowWrap: 'anywhere',
  '@media': { 'screen and (max-width: 40rem)': { paddingInline: vars.space.md } },
});
