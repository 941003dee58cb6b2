import type { AnyEventObject } from 'xstate';
import { DRAFT_SAVE_DELAY_MS, IP_LOOKUP_TIMEOUT_MS, KEEP_REQUEST_TIMEOUT_MS, SUBMIT_TIMEOUT_MS } from '@/config/site';
import { heldStorageWrites } from '../support/heldStorage';
import type { heldNetwork } from '../support/network';
import { statusOf } from './models';
import { elapse } from './steps';

/**
 * The steps that both form machines' model tests (the invite and the privacy request form, built on
 * machines/formSubmission.ts) drive alike, by event type for the machine `id`: the IP look-up's and the
 * submission's answers, held by the test's network until the step; their time-outs and the draft's pause,
 * on the fake clock; and the storage write of a kept request, held until the step releases it.
 */
export function formSubmissionActions(id: 'invite' | 'privacyRequest') {
  type Session = { network: ReturnType<typeof heldNetwork> };
  return {
    'xstate.done.actor.lookUpClientIp': async ({ network }: Session) => network.answerLookup(),
    [`xstate.after.ipLookupTimeout.${id}.clientIp.lookingUp`]: () => elapse(IP_LOOKUP_TIMEOUT_MS),
    'xstate.done.actor.submitRequest': async ({ network }: Session) => network.answerPost(201),
    'xstate.error.actor.submitRequest': async ({ network }: Session, _before: unknown, event: AnyEventObject) => network.answerPost(statusOf(event)),
    [`xstate.after.submitTimeout.${id}.form.submitting.sending`]: () => elapse(SUBMIT_TIMEOUT_MS),
    'xstate.done.actor.keepRequest': async () => heldStorageWrites.release(),
    [`xstate.after.keepRequestTimeout.${id}.form.submitting.keeping`]: () => elapse(KEEP_REQUEST_TIMEOUT_MS),
    [`xstate.after.draftSaveDelay.${id}.draft.changed`]: () => elapse(DRAFT_SAVE_DELAY_MS),
  };
}
