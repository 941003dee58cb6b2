/** Placeholder of the console's request page, replaced by its real version. */
export function RequestPage() {
  return <h1>Request</h1>;
}
