import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

const rise = keyframes({
  from: { opacity: 0, transform: 'translateY(0.5rem)' },
  to: { opacity: 1, transform: 'none' },
});

/** Fixed container at the foot of the viewport; the live region inside it is always in the DOM. */
export const region = style({
  position: 'fixed',
  insetInline: vars.space.md,
  bottom: vars.space.md,
  zIndex: 20,
  display: 'flex',
  justifyContent: 'center',
  pointerEvents: 'none',
});

export const toast = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.md,
  maxWidth: '32rem',
  padding: `${vars.space.sm} ${vars.space.sm} ${vars.space.sm} ${vars.space.md}`,
  background: vars.color.text,
  color: vars.color.background,
  borderRadius: vars.radius.md,
  boxShadow: '0 6px 24px rgb(0 0 0 / 0.25)',
  pointerEvents: 'auto',
  animation: `${rise} 160ms ease-out`,
});

/** The empty live region while no confirmation is shown. */
export const idle = style({ width: 0, height: 0, overflow: 'hidden' });

export const message = style({ margin: 0 });

export const dismiss = style({
  flexShrink: 0,
  minWidth: '2.75rem',
  minHeight: '2.75rem',
  border: 'none',
  borderRadius: vars.radius.sm,
  background: 'transparent',
  color: 'inherit',
  font: 'inherit',
  fontSize: '1.25rem',
  cursor: 'pointer',
});
