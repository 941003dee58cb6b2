/**
 * Calls `listener` each time the browser reports it is back online (the window's `online` event), for
 * the outbox to send what it keeps at once (issue #12).
 * @returns a function that stops listening
 */
export function onBackOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  return () => window.removeEventListener('online', listener);
}
