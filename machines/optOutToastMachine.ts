import { setup } from 'xstate';
import { OPT_OUT_TOAST_MS } from '@/config/site';

/** Events of the opt-out confirmation toast. */
export type OptOutToastEvent = { type: 'toast.show' } | { type: 'toast.dismiss' };

/**
 * Spec §4, §9: after 'Do Not Sell or Share My Personal Information', 'You have opted out of tracking.
 * Your preference has been saved.' shows for 3000 ms.
 */
export const optOutToastMachine = setup({
  types: { events: {} as OptOutToastEvent },
  delays: { toastDuration: OPT_OUT_TOAST_MS },
}).createMachine({
  id: 'optOutToast',
  description: 'Spec §4: the opt-out confirmation, shown for 3 seconds.',
  initial: 'hidden',
  states: {
    hidden: {
      description: 'No confirmation on screen.',
      on: { 'toast.show': { target: 'visible', description: 'The visitor opted out.' } },
    },
    visible: {
      description: "Shows 'You have opted out of tracking. Your preference has been saved.'",
      after: { toastDuration: { target: 'hidden', description: 'Spec §9: hidden after 3000 ms.' } },
      on: {
        'toast.show': {
          target: 'visible',
          reenter: true,
          description: 'Pressed again while shown: the 3 seconds start over.',
        },
        'toast.dismiss': { target: 'hidden', description: 'The visitor closes it early.' },
      },
    },
  },
});
