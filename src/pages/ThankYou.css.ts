import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const steps = style({ paddingInlineStart: vars.space.lg, margin: `0 0 ${vars.space.lg}` });

export const step = style({ marginBottom: vars.space.md });

export const stepTitle = style({ fontSize: '1.125rem', margin: 0 });

export const stepBody = style({ margin: 0, color: vars.color.textMuted });
