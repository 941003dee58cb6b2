import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { STORAGE_KEYS } from '@/config/site';
import { loadOutbox } from '@/services/outboxStore';
import { network as sent } from '../support/network';
import { statusOf } from './models';

// What both form machines' model tests check of issue #12 after each step, beyond the form itself.

/**
 * Issue #12: after a failure a later attempt may fix (503, time-out) the submission is in the browser's
 * outbox under the key it was sent with; after one it cannot (400) nothing is kept.
 */
export async function expectOutbox(event?: AnyEventObject) {
  const kept = event?.type === 'xstate.error.actor.submitRequest' ? statusOf(event) !== 400 : event?.type.startsWith('xstate.after.submitTimeout');
  if (kept) {
    const key = sent.submissions().at(-1)?.headers.get('Idempotency-Key');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    await vi.waitFor(async () => expect((await loadOutbox()).map((entry) => entry.key)).toContain(key));
  } else if (event?.type === 'xstate.error.actor.submitRequest') {
    expect(await loadOutbox()).toEqual([]);
  }
}

/**
 * Issue #12: once a draft is kept (after the pause, or when focus leaves the form) this tab's
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

