import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

/**
 * Holds every state of the page, from its first paint ("Checking your link…"): as tall as the tallest
 * state the page reaches without a press (the request already confirmed, on a phone: about 20rem), so
 * that nothing below moves when the look-up answers (CLS 0, `npm run bench`).
 */
export const panel = style({ minHeight: '20rem', display: 'grid', alignContent: 'start', gap: vars.space.md });

export const summary = style({ margin: 0, display: 'grid', gap: vars.space.sm });

export const term = style({ fontWeight: 700 });

export const value = style({ margin: 0 });

export const note = style({ color: vars.color.textMuted, margin: 0 });

export const outcome = style({ display: 'grid', gap: vars.space.md, justifyItems: 'start' });

export const outcomeTitle = style({ fontSize: '1.375rem', margin: 0 });
