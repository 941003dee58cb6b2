import { globalStyle } from '@vanilla-extract/css';
import { vars } from './theme.css';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });

globalStyle('html', {
  colorScheme: 'light dark',
  WebkitTextSizeAdjust: '100%',
  // Anchored sections stop below the sticky header.
  scrollPaddingTop: `calc(${vars.headerHeight} + ${vars.space.md})`,
});

globalStyle('body', {
  margin: 0,
  minWidth: '320px',
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: '1rem',
  lineHeight: 1.6,
});

globalStyle('h1, h2, h3', { lineHeight: 1.2, textWrap: 'balance' } as Record<string, string | number>);

globalStyle('a', { color: vars.color.link, textUnderlineOffset: '0.15em' });

globalStyle('img, svg', { maxWidth: '100%', display: 'block' });

// Visible focus for every keyboard-reachable element (WCAG 2.4.7, 2.4.11).
globalStyle(':focus-visible', {
  outline: `3px solid ${vars.color.focus}`,
  outlineOffset: '2px',
});

globalStyle('[tabindex="-1"]:focus', { outline: 'none' });

globalStyle('*, *::before, *::after', {
  '@media': {
    '(prefers-reduced-motion: reduce)': {
      animationDuration: '0.01ms !important',
      animationIterationCount: '1 !important',
      transitionDuration: '0.01ms !important',
    },
  },
});

// Printing a page (the legal pages above all) gives the text alone: no header, footer, toast
// or buttons, and each link's target written after it, since a sheet of paper cannot follow a link.
globalStyle('header, footer, button, [role="status"]', { '@media': { print: { display: 'none' } } });
globalStyle('main a[href]:not([href^="#"])::after', { '@media': { print: { content: '" (" attr(href) ")"', fontSize: '0.875em' } } });
