import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import { SUBMIT_TIMEOUT_MS } from '@/config/site';
import { keepInOutbox, keptEntry, loadOutbox, pruneOutbox, removeFromOutbox, retryDelayMs, type KeepRequest, type OutboxEntry } from '@/services/outboxStore';
import { onBackOnline } from '@/services/connectivity';
import { postSubmission, SubmissionError } from '@/services/submission';

export type { KeepRequest, OutboxEntry };
export { retryDelayMs };

/** Context: the kept submissions, oldest first (a working copy of what outboxStore holds), and the one being sent. */
export interface OutboxContext {
  entries: OutboxEntry[];
  /** key of the entry being sent; null when none */
  current: string | null;
}

/** Events of the outbox. */
export type OutboxEvent =
  /** a form's attempt failed on a network error, a time-out, a 5xx or a 429 (null: nothing was assembled) */
  | { type: 'outbox.keep'; request: KeepRequest | null }
  /** the browser is back online (`online` event): send what is kept now */
  | { type: 'outbox.online' };

const byNextAttempt = (entries: readonly OutboxEntry[]) => [...entries].sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)[0];

/**
 * The browser's submission outbox, app-wide. It loads what earlier pages kept, sends each
 * entry again with back-off until the server answers 2xx (stored) or a 4xx other than 408/429 (refused
 * for good, logged), and sends at once when the browser comes back online. Each entry keeps its
 * idempotency key, so the server stores it once however many attempts reach it.
 */
export const outboxMachine = setup({
  types: {
    context: {} as OutboxContext,
    events: {} as OutboxEvent,
  },
  actors: {
    /** what earlier pages kept (IndexedDB, or localStorage); never rejects */
    loadOutbox: fromPromise<OutboxEntry[]>(() => loadOutbox()),
    /** one attempt; rejects with a SubmissionError */
    sendEntry: fromPromise<void, OutboxEntry | undefined>(({ input, signal }) =>
      input ? postSubmission(input.body, input.key, signal) : Promise.reject(new Error('Nothing to send')),
    ),
    /** reports the browser's `online` event */
    watchConnectivity: fromCallback(({ sendBack }) => onBackOnline(() => sendBack({ type: 'outbox.online' }))),
  },
  delays: {
    /** until the earliest entry is due, in ms */
    untilNextAttempt: ({ context }) => Math.max(0, (byNextAttempt(context.entries)?.nextAttemptAt ?? Date.now()) - Date.now()),
    /** the submission call's time-out, as for the forms */
    submitTimeout: SUBMIT_TIMEOUT_MS,
  },
  guards: {
    isEmpty: ({ context }) => context.entries.length === 0,
    isDue: ({ context }) => (byNextAttempt(context.entries)?.nextAttemptAt ?? Infinity) <= Date.now(),
    isRetryable: (_, params: { error: unknown }) => params.error instanceof SubmissionError && params.error.retryable,
  },
  actions: {
    /**
     * What earlier pages kept joins what this page holds. A new page load is a new chance: each loaded
     * entry is due at once, whatever wait its last failure set; its attempts count on, so that the
     * back-off resumes where it was if this attempt fails too.
     */
    addLoaded: assign({
      entries: ({ context }, params: { loaded: OutboxEntry[] }) => {
        const known = new Set(context.entries.map((entry) => entry.key));
        const now = Date.now();
        const loaded = params.loaded.filter((entry) => !known.has(entry.key)).map((entry) => ({ ...entry, nextAttemptAt: Math.min(entry.nextAttemptAt, now) }));
        return pruneOutbox([...loaded, ...context.entries]);
      },
    }),
    addKept: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'outbox.keep');
        const { request } = event;
        if (!request) return context.entries;
        const entry = keptEntry(request);
        return pruneOutbox([...context.entries.filter((kept) => kept.key !== request.key), entry]);
      },
    }),
    // Storage is written by these named actions, never inside an assign: path generation evaluates assigns.
    storeKept: ({ event, context }) => {
      assertEvent(event, 'outbox.keep');
      const entry = context.entries.find((kept) => kept.key === event.request?.key);
      if (entry) void keepInOutbox(entry);
    },
    storeCurrent: ({ context }) => {
      const entry = context.entries.find((kept) => kept.key === context.current);
      if (entry) void keepInOutbox(entry);
    },
    unstoreCurrent: ({ context }) => {
      if (context.current) void removeFromOutbox(context.current);
    },
    pickDue: assign({ current: ({ context }) => byNextAttempt(context.entries)?.key ?? null }),
    makeAllDue: assign({ entries: ({ context }) => context.entries.map((entry) => ({ ...entry, nextAttemptAt: Date.now() })) }),
    /** the entry being sent answered 2xx, or was refused for good: forget it */
    forgetCurrent: assign({
      entries: ({ context }) => context.entries.filter((entry) => entry.key !== context.current),
      current: null,
    }),
    logRefused: (_, params: { error: unknown }) => {
      console.error('[outbox] the server refused a kept submission for good; it is dropped:', params.error instanceof Error ? params.error.message : params.error);
    },
    /** the attempt failed in a way that a later one may not: count it and wait longer */
    reschedule: assign({
      entries: ({ context }, params: { error: unknown }) => {
        const retryAfterMs = params.error instanceof SubmissionError ? params.error.retryAfterMs : null;
        return context.entries.map((entry) => {
          if (entry.key !== context.current) return entry;
          const attempts = entry.attempts + 1;
          return { ...entry, attempts, nextAttemptAt: Date.now() + retryDelayMs(attempts, retryAfterMs) };
        });
      },
    }),
  },
}).createMachine({
  id: 'outbox',
  description: 'Every submission that failed to arrive is kept in the browser and sent again until the server has it.',
  context: { entries: [], current: null },
  invoke: { id: 'watchConnectivity', src: 'watchConnectivity' },
  on: {
    'outbox.keep': {
      actions: ['addKept', 'storeKept'],
      description: 'A form hands over a submission whose attempt failed: kept (in storage too), first retry after about 2 s.',
    },
  },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reads what earlier pages kept.',
      invoke: {
        id: 'loadOutbox',
        src: 'loadOutbox',
        onDone: {
          target: 'checking',
          actions: { type: 'addLoaded', params: ({ event }) => ({ loaded: event.output }) },
          description: 'Kept submissions of earlier pages join those handed over meanwhile; a new page load is a new chance: each is due at once, its back-off resumes after.',
        },
      },
    },
    checking: {
      description: 'Decides what to do next.',
      always: [
        { guard: 'isEmpty', target: 'idle', description: 'Nothing kept.' },
        { guard: 'isDue', target: 'sending', description: 'The earliest entry is due.' },
        { target: 'waiting', description: 'The earliest entry is not due yet.' },
      ],
    },
    idle: {
      description: 'Nothing kept: nothing to do.',
      on: {
        'outbox.keep': {
          target: 'checking',
          actions: ['addKept', 'storeKept'],
          description: 'A form hands over a submission.',
        },
      },
    },
    waiting: {
      description: 'Waits for the earliest entry to be due.',
      after: { untilNextAttempt: { target: 'sending', description: 'The earliest entry is due.' } },
      on: {
        'outbox.keep': {
          target: 'checking',
          actions: ['addKept', 'storeKept'],
          description: 'A form hands over a submission: the wait is worked out again.',
        },
        'outbox.online': {
          target: 'checking',
          actions: 'makeAllDue',
          description: 'Back online: every kept submission is due now.',
        },
      },
    },
    sending: {
      description: 'Sends the earliest entry again, with its idempotency key.',
      entry: 'pickDue',
      invoke: {
        id: 'sendEntry',
        src: 'sendEntry',
        input: ({ context }) => context.entries.find((entry) => entry.key === context.current),
        onDone: { target: 'checking', actions: ['unstoreCurrent', 'forgetCurrent'], description: 'The server has it (2xx): forgotten here and in storage.' },
        onError: [
          {
            guard: { type: 'isRetryable', params: ({ event }) => ({ error: event.error }) },
            target: 'checking',
            actions: [{ type: 'reschedule', params: ({ event }) => ({ error: event.error }) }, 'storeCurrent'],
            description: 'No answer, 408, 429 or 5xx: sent again later, after a doubled wait (at least Retry-After).',
          },
          {
            target: 'checking',
            actions: [{ type: 'logRefused', params: ({ event }) => ({ error: event.error }) }, 'unstoreCurrent', 'forgetCurrent'],
            description: 'Any other 4xx: the server will never take it; logged and dropped.',
          },
        ],
      },
      after: {
        submitTimeout: {
          target: 'checking',
          actions: [{ type: 'reschedule', params: { error: null } }, 'storeCurrent'],
          description: 'No answer within SUBMIT_TIMEOUT_MS: the attempt is abandoned and sent again later.',
        },
      },
    },
  },
});

