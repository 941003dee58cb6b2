/** Placeholder of the console's cohorts page, replaced by its real version. */
export function CohortsPage() {
  return <h1>Cohorts</h1>;
}
