import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from './theme.css';

// Buttons and button-styled links, as static class names; src/styles/button.ts picks one by tone. Plain
// `styleVariants` rather than a `recipe()`, whose runtime (@vanilla-extract/recipes, about 0.5 KB gzip)
// was in every public page's first load for three class names.

const base = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: '2.75rem',
  paddingInline: vars.space.lg,
  borderRadius: vars.radius.md,
  border: '2px solid transparent',
  font: 'inherit',
  fontWeight: 600,
  textDecoration: 'none',
  cursor: 'pointer',
  transition: 'background-color 120ms ease, color 120ms ease',
  selectors: {
    // aria-disabled: a button that keeps the focus while it cannot be pressed (the verification page)
    '&:disabled, &[aria-disabled="true"]': { cursor: 'not-allowed', opacity: 0.7 },
  },
});

/** Each tone's class names: `primary` (filled), `secondary` (outlined), `quiet` (underlined text, no box). */
export const buttonTones = styleVariants({
  primary: [
    base,
    {
      background: vars.color.accent,
      color: vars.color.accentText,
      selectors: { '&:hover:not(:disabled):not([aria-disabled="true"])': { filter: 'brightness(1.1)' } },
    },
  ],
  secondary: [
    base,
    {
      background: 'transparent',
      color: vars.color.link,
      borderColor: vars.color.link,
    },
  ],
  quiet: [
    base,
    {
      background: 'transparent',
      color: vars.color.link,
      paddingInline: 0,
      minHeight: 'auto',
      border: 'none',
      fontWeight: 400,
      textAlign: 'start',
      textDecoration: 'underline',
      textUnderlineOffset: '0.15em',
    },
  ],
});
