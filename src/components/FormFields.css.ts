import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';
import { card } from '@/styles/surface.css';

export const form = style({ display: 'grid', gap: vars.space.lg, maxWidth: vars.width.prose });

export const fieldset = style([card, { display: 'grid', gap: vars.space.md, margin: 0, minWidth: 0 }]);

export const legend = style({ fontWeight: 700, fontSize: '1.125rem', paddingInline: vars.space.xs });

export const field = style({ display: 'grid', gap: vars.space.xs });

export const label = style({ fontWeight: 600 });

export const hint = style({ color: vars.color.textMuted, fontSize: '0.875rem', margin: 0 });

export const required = style({ color: vars.color.danger, marginInlineStart: '0.15em' });

export const input = style({
  width: '100%',
  minHeight: '2.75rem',
  padding: `${vars.space.sm} ${vars.space.md}`,
  font: 'inherit',
  color: vars.color.text,
  background: vars.color.background,
  border: `1px solid ${vars.color.textMuted}`,
  borderRadius: vars.radius.md,
  selectors: {
    '&::placeholder': { color: vars.color.textMuted, opacity: 1 },
    '&:user-invalid': { borderColor: vars.color.danger, borderWidth: '2px' },
    // :focus-within too: when a date input's inner picker button has focus, Chromium matches neither
    // :focus-visible nor :focus on the input, which would leave the field with no visible focus.
    '&:focus, &:focus-within': { outline: `3px solid ${vars.color.focus}`, outlineOffset: '2px' },
  },
});

export const textarea = style([input, { resize: 'vertical' }]);

export const choiceGroup = style({ border: 'none', margin: 0, padding: 0, minWidth: 0 });

export const choiceLegend = style({ fontWeight: 600, padding: 0, marginBottom: vars.space.xs });

export const choices = style({
  display: 'grid',
  gap: vars.space.xs,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 13rem), 1fr))',
});

export const choice = style({
  display: 'flex',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  minHeight: '2.75rem',
  paddingBlock: vars.space.xs,
  cursor: 'pointer',
});

export const checkbox = style({
  width: '1.25rem',
  height: '1.25rem',
  marginTop: '0.2rem',
  flexShrink: 0,
  accentColor: vars.color.accent,
});

export const actions = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.md });

export const alert = style({
  padding: vars.space.md,
  border: `2px solid ${vars.color.danger}`,
  borderRadius: vars.radius.md,
  background: vars.color.dangerSurface,
  color: vars.color.text,
});

export const alertTitle = style({ margin: 0, fontWeight: 700, color: vars.color.danger });

export const alertMessage = style({ margin: `${vars.space.xs} 0 0`, fontFamily: vars.font.mono });

export const alertHelp = style({ margin: `${vars.space.xs} 0 0` });

/** Off-screen but in the accessibility tree: the honeypot (not `display: none`, which bots skip). */
export const offScreen = style({
  position: 'absolute',
  left: '-10000px',
  top: 'auto',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
});
