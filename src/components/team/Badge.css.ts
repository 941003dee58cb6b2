import { recipe } from '@vanilla-extract/recipes';
import { vars } from '@/styles/theme.css';

/**
 * A state or a due date in the queue. The due date's tones are the DSR tools' (Fides): 10 days or more
 * left green, under 10 amber, under 5 red, overdue on a red ground; each says it in words too, never
 * by colour alone (WCAG 1.4.1).
 */
export const badge = recipe({
  base: {
    display: 'inline-block',
    padding: `0 ${vars.space.xs}`,
    borderRadius: vars.radius.sm,
    border: '1px solid currentColor',
    fontSize: '0.875rem',
    fontWeight: 600,
    whiteSpace: 'nowrap',
    // our own words: where a narrow queue lets a badge take two lines, it breaks between them, never inside one
    overflowWrap: 'normal',
  },
  variants: {
    tone: {
      neutral: { color: vars.color.textMuted, borderColor: vars.color.border },
      ok: { color: vars.color.success, background: vars.color.successSurface },
      soon: { color: vars.color.warning, background: vars.color.warningSurface },
      urgent: { color: vars.color.danger, background: vars.color.dangerSurface },
      overdue: { color: vars.color.background, background: vars.color.danger, borderColor: vars.color.danger },
    },
  },
  defaultVariants: { tone: 'neutral' },
});
