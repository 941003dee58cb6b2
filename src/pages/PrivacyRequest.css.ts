import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const types = style({ margin: `0 0 ${vars.space.lg}`, display: 'grid', gap: vars.space.sm });

export const typeName = style({ fontWeight: 700 });

export const typeMeaning = style({ margin: 0, color: vars.color.textMuted });

export const typesTitle = style({ fontSize: '1.25rem', margin: `${vars.space.lg} 0 ${vars.space.sm}` });
