/** Placeholder of the console's queue page, replaced by its real version. */
export function QueuePage() {
  return <h1>Queue</h1>;
}
