import { assign, fromPromise, setup } from 'xstate';
import { addCohort, fetchCohorts, TeamApiError } from '@/services/teamApi';
import type { Cohort } from '#shared/team';
import { problemText, sessionEnded, sessionEndedTransition, storeCallError } from './teamCalls';
import { unlessAborted } from './abortable';

/** A new cohort as the form sends it; `capacity` null: no limit. */
export interface NewCohort {
  name: string;
  /** `YYYY-MM-DD` */
  startsOn: string;
  capacity: number | null;
}

/** The form's problems, per field (`form` for one of the whole form). */
export type CohortFieldErrors = Partial<Record<keyof NewCohort | 'form', string>>;

export interface TeamCohortsContext {
  cohorts: Cohort[];
  /** why the list could not be loaded; null when it was */
  error: string | null;
  fieldErrors: CohortFieldErrors;
  /** how many cohorts were created on this page (the form is emptied after each) */
  created: number;
}

export type TeamCohortsEvent = { type: 'cohorts.retry' } | { type: 'cohort.add'; cohort: NewCohort };

/** The fields' problems before anything is sent: a name, a start date, a capacity of at least 1. */
function cohortProblems(cohort: NewCohort): CohortFieldErrors {
  const problems: CohortFieldErrors = {};
  if (!cohort.name.trim()) problems.name = 'Give the cohort a name.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(cohort.startsOn)) problems.startsOn = 'Give the date it starts.';
  if (cohort.capacity !== null && (!Number.isInteger(cohort.capacity) || cohort.capacity < 1)) problems.capacity = 'A capacity is a whole number of at least 1, or empty for no limit.';
  return problems;
}

/** A refused creation in the form's words: a name taken (409) goes to the name, the rest to the form. */
function creationProblems(error: unknown): CohortFieldErrors {
  if (error instanceof TeamApiError && error.status === 409) return { name: 'A cohort of that name exists already.' };
  return { form: problemText(error) };
}

/**
 * The cohorts on `/team/cohorts`: each with its start date and how full it is, and a form to create one
 * (name, start date, capacity or none), its problems shown by field. A call answered 401 tells the session.
 */
export const teamCohortsMachine = setup({
  types: {
    context: {} as TeamCohortsContext,
    events: {} as TeamCohortsEvent,
  },
  actors: {
    loadCohorts: fromPromise<Cohort[]>(({ signal }) => unlessAborted(fetchCohorts(signal), signal)),
    addCohort: fromPromise<Cohort, NewCohort>(({ input, signal }) => unlessAborted(addCohort({ ...input, name: input.name.trim() }), signal)),
  },
  actions: {
    storeCohorts: assign({ cohorts: (_, cohorts: Cohort[]) => cohorts, error: null }),
    storeCreated: assign(({ context }, cohort: Cohort) => ({
      cohorts: [...context.cohorts, cohort].sort((a, b) => a.startsOn.localeCompare(b.startsOn) || a.name.localeCompare(b.name)),
      fieldErrors: {},
      created: context.created + 1,
    })),
    storeError: assign({ error: (_, params: { error: unknown }) => problemText(params.error) }),
    storeFieldErrors: assign({ fieldErrors: (_, params: { errors: CohortFieldErrors }) => params.errors }),
    clearError: assign({ error: null }),
    // the view's: the session hears of a 401
    endSession: () => {},
  },
  guards: {
    sessionEnded: (_, params: { error: unknown }) => sessionEnded(params.error),
    isWellFormed: (_, params: { cohort: NewCohort }) => Object.keys(cohortProblems(params.cohort)).length === 0,
  },
}).createMachine({
  id: 'teamCohorts',
  description: 'The cohorts (/team/cohorts): how full each is, and a form to create one.',
  context: { cohorts: [], error: null, fieldErrors: {}, created: 0 },
  initial: 'loading',
  states: {
    loading: {
      description: 'GET /api/team/cohorts.',
      invoke: {
        id: 'loadCohorts',
        src: 'loadCohorts',
        onDone: { target: 'ready', actions: { type: 'storeCohorts', params: ({ event }) => event.output }, description: 'The cohorts are listed.' },
        onError: [
          sessionEndedTransition(),
          { target: 'failed', actions: storeCallError, description: 'No answer, or an error: try again.' },
        ],
      },
    },
    ready: {
      description: 'The list and the form.',
      on: {
        'cohort.add': [
          {
            guard: { type: 'isWellFormed', params: ({ event }) => ({ cohort: event.cohort }) },
            target: 'adding',
            actions: { type: 'storeFieldErrors', params: { errors: {} } },
            description: 'Create: a well-formed cohort is sent.',
          },
          {
            actions: { type: 'storeFieldErrors', params: ({ event }) => ({ errors: cohortProblems(event.cohort) }) },
            description: 'A field is missing or out of shape: said beside it, nothing sent.',
          },
        ],
      },
    },
    adding: {
      description: 'POST /api/team/cohorts.',
      invoke: {
        id: 'addCohort',
        src: 'addCohort',
        input: ({ event }) => (event.type === 'cohort.add' ? event.cohort : { name: '', startsOn: '', capacity: null }),
        onDone: { target: 'ready', actions: { type: 'storeCreated', params: ({ event }) => event.output }, description: 'Created: listed, and the form emptied.' },
        onError: [
          sessionEndedTransition(),
          {
            target: 'ready',
            actions: { type: 'storeFieldErrors', params: ({ event }) => ({ errors: creationProblems(event.error) }) },
            description: 'Refused (a name taken, 409) or failed: said beside the field, or for the form; what was typed stays.',
          },
        ],
      },
    },
    failed: {
      description: 'The cohorts could not be loaded: why, and Try again.',
      on: { 'cohorts.retry': { target: 'loading', actions: 'clearError', description: 'Try again.' } },
    },
  },
});
