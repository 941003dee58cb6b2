import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { privacyRequestToInvitePayload } from '@/forms/privacyRequest';
import type { SubmissionBody } from '#shared/submission';
import { privacyRequestMachine } from '#machines/privacyRequestMachine';
import { loadOutbox } from '@/services/outboxStore';
import { SubmissionError } from '@/services/submission';

const payload = privacyRequestToInvitePayload({ fullName: 'Ada', email: 'ada@example.com', requestType: ['Delete'] });

/** The machine with the lookup answering at once and the POST answering from `outcomes`, in order. */
function start(outcomes: Array<() => Promise<void>>) {
  const sent: SubmissionBody[] = [];
  const keys: string[] = [];
  const machine = privacyRequestMachine.provide({
    actors: {
      lookUpClientIp: fromPromise<string | null>(async () => '198.51.100.4'),
      submitRequest: fromPromise<void, { body: SubmissionBody | null; key: string | null }>(({ input }) => {
        if (!input.body || !input.key) throw new Error('the machine sent no body or no idempotency key');
        sent.push(input.body);
        keys.push(input.key);
        return outcomes[sent.length - 1]!();
      }),
    },
  });
  return { actor: createActor(machine).start(), sent, keys };
}

describe('privacyRequestMachine (spec §4, §8)', () => {
  it('goes idle → submitting → submitted on success', async () => {
    const { actor, sent } = start([async () => {}]);
    actor.send({ type: 'form.submit', payload });
    expect(actor.getSnapshot().matches({ form: 'submitting' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
    expect(sent[0]).toMatchObject({ event: 'invite_request', data: { ...payload, clientIP: '198.51.100.4' } });
  });

  it('returns to idle with the error on failure, and a retry succeeds and clears it', async () => {
    const { actor, sent } = start([
      async () => {
        throw new Error('HTTP error! status: 500');
      },
      async () => {},
    ]);
    actor.send({ type: 'form.submit', payload });
    const failed = await waitFor(actor, (s) => s.matches({ form: 'idle' }) && s.context.error !== null);
    expect(failed.context.error).toBe('HTTP error! status: 500');
    actor.send({ type: 'form.submit', payload });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
    expect(sent).toHaveLength(2);
  });

  it("falls back to 'Failed to submit request. Please try again.' when the failure has no message", async () => {
    const { actor } = start([() => Promise.reject(new Error(''))]);
    actor.send({ type: 'form.submit', payload });
    const failed = await waitFor(actor, (s) => s.context.error !== null);
    expect(failed.context.error).toBe('Failed to submit request. Please try again.');
  });

  it('says the request is saved only once it is in the browser\'s storage (spec §4, §8)', async () => {
    const { actor, keys } = start([
      async () => {
        throw new SubmissionError('HTTP error! status: 503', 503);
      },
    ]);
    actor.send({ type: 'form.submit', payload });
    const keeping = await waitFor(actor, (s) => s.matches({ form: { submitting: 'keeping' } }));
    expect(keeping.context.kept?.key).toBe(keys[0]);
    await waitFor(actor, (s) => s.matches({ form: 'idle' }));
    expect((await loadOutbox()).map((entry) => entry.key)).toEqual(keys);
    vi.restoreAllMocks();
  });
});
