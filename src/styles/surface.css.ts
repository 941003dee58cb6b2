import { style } from '@vanilla-extract/css';
import { vars } from './theme.css';

// Composed with `style([surface, { … }])`: each user adds only properties these do not set, so the
// result does not depend on which rule comes first in the stylesheet.

/** A card of the site (a feature, the cost estimator, a group of a form's fields): raised, bordered, large corners. */
export const card = style({
  padding: vars.space.lg,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});

/** A box of the team console (a cohort, a group of decisions): bordered, medium corners, no surface of its own. */
export const box = style({
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
});
