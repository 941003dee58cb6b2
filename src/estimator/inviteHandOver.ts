/**
 * Values handed to the invite form from elsewhere on its page: the cost estimator's figures
 * (`estimatedMonthlyQueries`, `peakQPS`), by input name.
 */
export type InviteHandOver = Readonly<Record<string, string>>;

// The page's one channel to its invite form, whose code loads after the load event
// (src/pages/Home.tsx, InviteFormPart): what is handed over before the form is on the page waits here,
// and the form takes it as it mounts.
let receiver: ((values: InviteHandOver) => void) | null = null;
let waiting: InviteHandOver | null = null;

/**
 * Hands values to the invite form, which puts them in its fields and its draft as if the visitor had
 * typed them (src/hooks/useFormDraft.ts); every other field keeps what the visitor wrote.
 * @param values - field values by input name
 * @returns true when the form took them now; false when it is not on the page yet: they wait (the
 *   latest value of each field), and the form takes them when it mounts
 */
export function handOverToInviteForm(values: InviteHandOver): boolean {
  if (receiver) {
    receiver(values);
    return true;
  }
  waiting = { ...waiting, ...values };
  return false;
}

/**
 * Makes `receive` the invite form's receiver, and gives it at once what was handed over while there
 * was none.
 * @param receive - puts the values into the form
 * @returns stops receiving (the form unmounts)
 */
export function receiveInviteHandOvers(receive: (values: InviteHandOver) => void): () => void {
  receiver = receive;
  if (waiting) {
    const values = waiting;
    waiting = null;
    receive(values);
  }
  return () => {
    if (receiver === receive) receiver = null;
  };
}
