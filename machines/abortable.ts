/**
 * `call`, except that once `signal` aborted (its actor was stopped) it never settles. Under React's
 * StrictMode, @xstate/react stops an actor and starts it again with the same children, which run their
 * call anew: the first call's abort must not reach the restarted actor as a failure. Used by the
 * `fromPromise` actors of the machines whose view starts them (verify, the console's).
 */
export function unlessAborted<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
  return call.catch((error: unknown) => (signal.aborted ? new Promise<never>(() => {}) : Promise.reject(error)));
}
