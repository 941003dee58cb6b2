/**
 * True when the visitor asked for reduced motion (`prefers-reduced-motion: reduce`): scrolls jump
 * instead of gliding. False where the browser cannot tell (no `matchMedia`).
 */
export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
