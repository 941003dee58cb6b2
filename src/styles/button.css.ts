import { recipe } from '@vanilla-extract/recipes';
import { vars } from './theme.css';

/** Buttons and button-styled links. `tone`: primary (filled) or secondary (outlined). */
export const button = recipe({
  base: {
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
  },
  variants: {
    tone: {
      primary: {
        background: vars.color.accent,
        color: vars.color.accentText,
        selectors: { '&:hover:not(:disabled):not([aria-disabled="true"])': { filter: 'brightness(1.1)' } },
      },
      secondary: {
        background: 'transparent',
        color: vars.color.link,
        borderColor: vars.color.link,
      },
      quiet: {
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
    },
  },
  defaultVariants: { tone: 'primary' },
});
