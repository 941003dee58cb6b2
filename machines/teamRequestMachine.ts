import { assign, fromPromise, setup } from 'xstate';
import { addNote, fetchCohorts, fetchRequest } from '@/services/teamApi';
import type { Cohort, RequestDetail } from '#shared/team';
import { notFound, problemText, sessionEnded, sessionEndedTransition, storeCallError } from './teamCalls';
import { unlessAborted } from './abortable';

/** Which request the page shows: its id, from the address (`/team/requests/:id`). */
export interface TeamRequestInput {
  id: string;
}

export interface TeamRequestContext {
  id: string;
  /** the request's page; null until loaded */
  detail: RequestDetail | null;
  /** every cohort (an acceptance's choices) */
  cohorts: Cohort[];
  /** why the last load failed; null when it did not */
  error: string | null;
  /** why the last note was not added; null when it was */
  noteError: string | null;
  /** how many notes were added on this page (the note box is emptied after each) */
  notesAdded: number;
}

/** What the member does on a request's page. */
export type TeamRequestEvent = { type: 'request.retry' } | { type: 'request.reload' } | { type: 'note.add'; text: string };

/**
 * A request's page in the console (`/team/requests/:id`): the request as submitted, its timeline and the
 * other requests from its mailbox, loaded with the cohorts; a note added to its timeline; loaded again
 * after a decision. Unknown: "no such request". A call answered 401 tells the session (`endSession`).
 */
export const teamRequestMachine = setup({
  types: {
    context: {} as TeamRequestContext,
    events: {} as TeamRequestEvent,
    input: {} as TeamRequestInput,
  },
  actors: {
    loadRequest: fromPromise<{ detail: RequestDetail; cohorts: Cohort[] }, { id: string }>(({ input, signal }) =>
      unlessAborted(Promise.all([fetchRequest(input.id, signal), fetchCohorts(signal)]).then(([detail, cohorts]) => ({ detail, cohorts })), signal),
    ),
    addNote: fromPromise<void, { id: string; text: string }>(({ input, signal }) => unlessAborted(addNote(input.id, input.text), signal)),
  },
  actions: {
    storeRequest: assign((_, output: { detail: RequestDetail; cohorts: Cohort[] }) => ({ detail: output.detail, cohorts: output.cohorts, error: null })),
    storeError: assign({ error: (_, params: { error: unknown }) => problemText(params.error) }),
    storeNoteError: assign({ noteError: (_, params: { error: unknown }) => problemText(params.error) }),
    noteAdded: assign({ noteError: null, notesAdded: ({ context }) => context.notesAdded + 1 }),
    clearErrors: assign({ error: null, noteError: null }),
    // the view's: the session hears of a 401
    endSession: () => {},
  },
  guards: {
    sessionEnded: (_, params: { error: unknown }) => sessionEnded(params.error),
    notFound: (_, params: { error: unknown }) => notFound(params.error),
    hasText: (_, params: { text: string }) => params.text.trim() !== '',
  },
}).createMachine({
  id: 'teamRequest',
  description: "A request's page in the console: every field as submitted, its timeline, its mailbox's other requests, a note box.",
  context: ({ input }) => ({ id: input.id, detail: null, cohorts: [], error: null, noteError: null, notesAdded: 0 }),
  initial: 'loading',
  states: {
    loading: {
      description: 'GET /api/team/requests/:id and GET /cohorts; after a decision, what was shown stays until the answer.',
      invoke: {
        id: 'loadRequest',
        src: 'loadRequest',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: { type: 'storeRequest', params: ({ event }) => event.output }, description: 'The request is shown.' },
        onError: [
          sessionEndedTransition(),
          { guard: { type: 'notFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound', description: '404: no such request.' },
          { target: 'failed', actions: storeCallError, description: 'No answer, or an error: try again.' },
        ],
      },
    },
    ready: {
      description: 'The request, its timeline and the note box; the decisions the charts allow.',
      initial: 'idle',
      on: { 'request.reload': { target: 'loading', description: 'A decision was taken: the request and its timeline are loaded again.' } },
      states: {
        idle: {
          description: 'The note box waits for text.',
          on: {
            'note.add': {
              guard: { type: 'hasText', params: ({ event }) => ({ text: event.text }) },
              target: 'noting',
              description: 'Add note: the text goes to the timeline.',
            },
          },
        },
        noting: {
          description: 'POST /api/team/notes: the note, by the member, now.',
          invoke: {
            id: 'addNote',
        src: 'addNote',
            input: ({ context, event }) => ({ id: context.id, text: event.type === 'note.add' ? event.text : '' }),
            onDone: { target: '#teamRequest.loading', actions: 'noteAdded', description: 'Added: the box is emptied and the timeline loaded again.' },
            onError: [
              sessionEndedTransition({ target: '#teamRequest.failed' }),
              {
                target: 'idle',
                actions: { type: 'storeNoteError', params: ({ event }) => ({ error: event.error }) },
                description: 'Not added: said; the text typed stays in the box.',
              },
            ],
          },
        },
      },
    },
    notFound: { type: 'final', description: 'No request has this id: said, with the way back to the queue.' },
    failed: {
      description: 'The request could not be loaded: why, and Try again.',
      on: { 'request.retry': { target: 'loading', actions: 'clearErrors', description: 'Try again.' } },
    },
  },
});
