/**
 * Calls `listener` each time the browser reports it is back online (the window's `online` event), for
 * the outbox to send what it keeps at once.
 * @returns a function that stops listening
 */
export function onBackOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  return () => window.removeEventListener('online', listener);
}
