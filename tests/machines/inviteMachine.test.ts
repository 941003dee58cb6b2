import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SubmissionBody } from '#shared/submission';
import { KEEP_REQUEST_TIMEOUT_MS } from '@/config/site';
import { loadOutbox, type KeepRequest } from '@/services/outboxStore';
import { SubmissionError } from '@/services/submission';
import { inviteMachine } from '#machines/inviteMachine';
import { visitorPayload } from '../inviteFixtures';

/** The machine with its network actors replaced: the lookup answers at once, the POST as told. */
function start(post: (body: SubmissionBody) => Promise<void>, lookUp: () => Promise<string | null> = async () => '198.51.100.4') {
  const sent: SubmissionBody[] = [];
  const machine = inviteMachine.provide({
    actors: {
      lookUpClientIp: fromPromise(lookUp),
      submitRequest: fromPromise<void, { body: SubmissionBody | null; key: string | null }>(({ input }) => {
        if (!input.body || !input.key) throw new Error('the machine sent no body or no idempotency key');
        sent.push(input.body);
        return post(input.body);
      }),
    },
  });
  const actor = createActor(machine).start();
  return { actor, sent };
}

describe('inviteMachine (spec §4)', () => {
  it('goes idle → submitting → submitted when the endpoint succeeds', async () => {
    const { actor, sent } = start(async () => {});
    expect(actor.getSnapshot().matches({ form: 'idle' })).toBe(true);
    actor.send({ type: 'form.submit', payload: visitorPayload });
    expect(actor.getSnapshot().matches({ form: 'submitting' })).toBe(true);
    const done = await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
    expect(done.context.error).toBeNull();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ event: 'invite_request', data: { ...visitorPayload, clientIP: '198.51.100.4' } });
  });

  it('still reaches submitted when the endpoint fails, keeping and logging the error (spec §8)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { actor } = start(async () => {
      throw new Error('HTTP error! status: 500');
    });
    actor.send({ type: 'form.submit', payload: visitorPayload });
    const done = await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
    expect(done.context.error).toBe('HTTP error! status: 500');
    expect(log).toHaveBeenCalledWith('[invite] submission failed:', 'HTTP error! status: 500');
  });

  it('sends one request however often the form is submitted while submitting', async () => {
    let release = () => {};
    const { actor, sent } = start(() => new Promise<void>((resolve) => (release = resolve)));
    actor.send({ type: 'form.submit', payload: visitorPayload });
    await waitFor(actor, (s) => s.matches({ form: { submitting: 'sending' } }));
    actor.send({ type: 'form.submit', payload: visitorPayload });
    actor.send({ type: 'form.submit', payload: visitorPayload });
    release();
    await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
    expect(sent).toHaveLength(1);
  });

  it('starts the IP lookup when the visitor engages, and sends null when it times out after 5000 ms', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const lookUp = vi.fn(() => new Promise<string | null>(() => {}));
    const { actor, sent } = start(async () => {}, lookUp);
    actor.send({ type: 'form.engage' });
    expect(lookUp).toHaveBeenCalledTimes(1);
    actor.send({ type: 'form.submit', payload: visitorPayload });
    expect(actor.getSnapshot().matches({ form: { submitting: 'awaitingClientIp' } })).toBe(true);
    vi.advanceTimersByTime(4999);
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data.clientIP).toBeNull();
    vi.useRealTimers();
    await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
  });

  it('hands the body as sent to consent on sending, and goes to /thank-you once submitted: the named actions a view provides', async () => {
    const handedOver: Array<SubmissionBody | null> = [];
    const steps: string[] = [];
    let sent: SubmissionBody | undefined;
    const machine = inviteMachine.provide({
      actors: {
        lookUpClientIp: fromPromise<string | null>(async () => '198.51.100.4'),
        submitRequest: fromPromise<void, { body: SubmissionBody | null; key: string | null }>(async ({ input }) => {
          sent = input.body ?? undefined;
          steps.push('POST');
        }),
      },
      actions: {
        handOverToConsent: (_, { body }) => {
          handedOver.push(body);
          steps.push('handOverToConsent');
        },
        goToThankYou: () => steps.push('goToThankYou'),
      },
    });
    const actor = createActor(machine).start();
    actor.send({ type: 'form.submit', payload: visitorPayload });
    await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
    expect(handedOver).toEqual([sent]);
    expect(steps).toEqual(['handOverToConsent', 'POST', 'goToThankYou']);
  });

  it("a request kept after a failed attempt is in the browser's storage before the visitor is sent to /thank-you (spec §4, §8)", async () => {
    const steps: string[] = [];
    const machine = inviteMachine.provide({
      actors: {
        lookUpClientIp: fromPromise<string | null>(async () => '198.51.100.4'),
        submitRequest: fromPromise<void, { body: SubmissionBody | null; key: string | null }>(async () => {
          throw new SubmissionError('HTTP error! status: 503', 503);
        }),
      },
      actions: {
        keepForRetry: () => steps.push('keepForRetry'),
        goToThankYou: async () => {
          // what storage holds at the moment the visitor is sent on
          steps.push(`goToThankYou with ${(await loadOutbox()).length} kept`);
        },
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const actor = createActor(machine).start();
    actor.send({ type: 'form.submit', payload: visitorPayload });
    await waitFor(actor, (s) => s.matches({ form: { submitting: 'keeping' } }));
    const done = await waitFor(actor, (s) => s.matches({ form: 'submitted' }));
    await vi.waitFor(() => expect(steps).toHaveLength(2));
    expect(steps).toEqual(['keepForRetry', 'goToThankYou with 1 kept']);
    expect((await loadOutbox())[0]).toMatchObject({ key: done.context.kept?.key, body: done.context.body, attempts: 1 });
  });

  it(`spec §4, navigate whatever the result: a storage write that hangs holds the visitor back ${KEEP_REQUEST_TIMEOUT_MS} ms at most, logged`, async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const steps: string[] = [];
    const machine = inviteMachine.provide({
      actors: {
        lookUpClientIp: fromPromise<string | null>(async () => '198.51.100.4'),
        submitRequest: fromPromise<void, { body: SubmissionBody | null; key: string | null }>(async () => {
          throw new SubmissionError('Failed to fetch', null);
        }),
        keepRequest: fromPromise<void, KeepRequest | null>(() => new Promise<void>(() => {})), // storage never answers
      },
      actions: { keepForRetry: () => steps.push('keepForRetry'), goToThankYou: () => steps.push(`goToThankYou at ${Date.now()}`) },
    });
    const actor = createActor(machine);
    let keepingSince: number | null = null;
    actor.subscribe((s) => {
      if (keepingSince === null && s.matches({ form: { submitting: 'keeping' } })) keepingSince = Date.now();
    });
    actor.start();
    actor.send({ type: 'form.submit', payload: visitorPayload });
    await vi.advanceTimersByTimeAsync(3 * KEEP_REQUEST_TIMEOUT_MS);
    expect(keepingSince).not.toBeNull();
    expect(steps).toEqual(['keepForRetry', `goToThankYou at ${keepingSince! + KEEP_REQUEST_TIMEOUT_MS}`]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`within ${KEEP_REQUEST_TIMEOUT_MS} ms`));
    vi.useRealTimers();
  });
});
