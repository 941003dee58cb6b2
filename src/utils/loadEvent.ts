/**
 * Resolves once the document's load event has fired: at once when it has, and outside a browser (the
 * prerender). What can wait for it (the invite form's chunk, the estimator's, the outbox's start) is then
 * not part of a page's first load (DESIGN.md §4).
 */
export function loadEventFired(): Promise<void> {
  if (typeof document === 'undefined' || document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}
