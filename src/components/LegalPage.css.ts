import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const updated = style({ color: vars.color.textMuted, margin: `0 0 ${vars.space.lg}` });

export const toc = style({ margin: `0 0 ${vars.space.xl}`, paddingInlineStart: vars.space.lg });

export const sectionTitle = style({ fontSize: '1.25rem', margin: `${vars.space.xl} 0 ${vars.space.sm}` });
