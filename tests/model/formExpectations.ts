import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { STORAGE_KEYS } from '@/config/site';
import { loadOutbox } from '@/services/outboxStore';
import { network as sent } from '../support/network';

// What both form machines' model tests check of the README's "No request lost" after each step, beyond the form itself.

/**
 * Spec §4, §8: after a failure a later attempt may fix (503, time-out) the form waits
 * (`keeping`) while the submission is written to the browser's outbox, under the key it was sent with; it
 * is there once the write is done, and, past the wait's limit, once the page's outbox has written it. After
 * a failure no attempt fixes (400) nothing is kept.
 */
export async function expectOutbox(state: AnyMachineSnapshot, event?: AnyEventObject) {
  const key = sent.submissions().at(-1)?.headers.get('Idempotency-Key');
  if (state.matches({ form: { submitting: 'keeping' } })) {
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // held: not written yet, and the form has not moved on
    expect((await loadOutbox()).map((entry) => entry.key)).not.toContain(key);
  } else if (event?.type === 'xstate.done.actor.keepRequest' || event?.type.startsWith('xstate.after.keepRequestTimeout')) {
    await vi.waitFor(async () => expect((await loadOutbox()).map((entry) => entry.key)).toContain(key));
  } else if (event?.type === 'xstate.error.actor.submitRequest') {
    expect(await loadOutbox()).toEqual([]);
  }
}

/**
 * Once a draft is kept (after the pause, or when focus leaves the form) this tab's
 * sessionStorage holds what was typed into `field`; once the form is sent it holds nothing.
 */
export function expectDraft(state: AnyMachineSnapshot, event: AnyEventObject | undefined, form: string, field: string) {
  const kept = sessionStorage.getItem(`${STORAGE_KEYS.draftPrefix}${form}`);
  if (state.matches({ form: 'submitted' })) {
    expect(kept).toBeNull();
  } else if (event?.type === 'form.blur' || event?.type.startsWith('xstate.after.draftSaveDelay')) {
    expect(JSON.parse(kept ?? '{}')).toMatchObject({ [field]: expect.stringMatching(/x$/) });
  }
}

