import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';
import { box } from '@/styles/surface.css';

export const panel = style({ display: 'grid', gap: vars.space.md });

export const buttons = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'end' });

export const group = style([box, { display: 'grid', gap: vars.space.sm, margin: 0, minWidth: 0 }]);

export const legend = style({ fontWeight: 700, paddingInline: vars.space.xs });

export const flight = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `2px solid ${vars.color.accent}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceRaised,
});

export const flightTitle = style({ margin: 0, fontSize: '1.125rem' });

export const mails = style({ display: 'grid', gap: vars.space.sm, margin: 0, padding: 0, listStyle: 'none' });

export const mail = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.sm, padding: vars.space.sm });

export const mailHead = style({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: `0 ${vars.space.sm}`, margin: 0 });

/** a mail's text as it is sent: plain text, its line breaks kept, long lines wrapped */
export const mailText = style({
  margin: `${vars.space.sm} 0 0`,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontFamily: vars.font.mono,
  fontSize: '0.875rem',
  maxHeight: '20rem',
  overflowY: 'auto',
});

export const refusals = style({ margin: 0, color: vars.color.danger });

export const done = style({ color: vars.color.success, fontWeight: 600, margin: 0 });
