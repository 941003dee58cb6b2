import { assign, fromPromise, setup } from 'xstate';
import { fetchCohorts, fetchQueue, queueCsvUrl } from '@/services/teamApi';
import type { Cohort, QueueFilters, QueuePage, QueueState, RequestSummary } from '#shared/team';
import { problemText, sessionEnded, sessionEndedTransition, storeCallError } from './teamCalls';
import { unlessAborted } from './abortable';

/** The text search waits this many ms after the last keystroke before the queue is asked again. */
export const QUEUE_SEARCH_DEBOUNCE_MS = 250;

/** Where the queue opens: the filters of its address (`/team?kind=&state=&cohort=&q=`). */
export interface TeamQueueInput {
  filters: QueueFilters;
}

export interface TeamQueueContext {
  filters: QueueFilters;
  /** the pages loaded so far, newest first */
  requests: RequestSummary[];
  /** the cursor of the next page; null on the last */
  next: string | null;
  /** requests per state, for every filter but `state` */
  counts: QueuePage['counts'];
  /** every cohort (the cohort filter, an acceptance's choices) */
  cohorts: Cohort[];
  /** the invite requests chosen for a decision, in the order chosen */
  selected: string[];
  /** where the CSV of the current filter downloads from */
  csvUrl: string;
  /** why the last call failed; null when it did not */
  error: string | null;
}

/** What the member does in the queue. */
export type TeamQueueEvent =
  | { type: 'queue.filter'; filters: Omit<QueueFilters, 'q'> }
  | { type: 'queue.search'; q: string }
  | { type: 'queue.loadMore' }
  | { type: 'queue.retry' }
  | { type: 'queue.reload' }
  | { type: 'queue.toggle'; id: string }
  | { type: 'queue.selectAll' }
  | { type: 'queue.clearSelection' };

/** The filters without empty values: what the address and the calls carry. */
function cleanFilters(filters: QueueFilters): QueueFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => typeof value === 'string' && value !== '')) as QueueFilters;
}

const KINDS: readonly string[] = ['invite', 'privacy'];
const STATES: readonly string[] = ['received', 'waitlisted', 'accepted', 'declined', 'spam', 'open', 'done', 'overdue'];

/** The filters an address's query carries (`?kind=&state=&cohort=&q=`); a value out of its shape is left out. */
export function queueFiltersOf(query: URLSearchParams): QueueFilters {
  const kind = query.get('kind') ?? '';
  const state = query.get('state') ?? '';
  return cleanFilters({
    kind: KINDS.includes(kind) ? (kind as QueueFilters['kind']) : undefined,
    state: STATES.includes(state) ? (state as QueueState) : undefined,
    cohort: query.get('cohort') ?? undefined,
    q: query.get('q') ?? undefined,
  });
}

/** The query of an address that opens the queue with `filters` (`kind=invite&q=ada`), in a fixed order. */
export function queueQueryOf(filters: QueueFilters): string {
  const query = new URLSearchParams();
  for (const key of ['kind', 'state', 'cohort', 'q'] as const) if (filters[key]) query.set(key, filters[key]);
  return query.toString();
}

/** The invite requests of a page: the only ones a bulk decision takes (shared/team.ts `DecisionRequest`). */
const selectable = (requests: readonly RequestSummary[]) => requests.filter((request) => request.kind === 'invite').map((request) => request.id);

/**
 * The team's queue on `/team`: one list of invite and privacy requests, newest first, filtered by kind,
 * state (with the counts per state), cohort and text; loaded a page at a time by its keyset cursor, and a
 * selection of invite requests for a bulk decision. A filter reloads the first page at once, the text
 * after {@link QUEUE_SEARCH_DEBOUNCE_MS}; each is written to the address (`writeAddress`, the view's), so
 * a filtered queue reloads and is shared as a link. A call answered 401 tells the session (`endSession`).
 */
export const teamQueueMachine = setup({
  types: {
    context: {} as TeamQueueContext,
    events: {} as TeamQueueEvent,
    input: {} as TeamQueueInput,
  },
  actors: {
    loadQueue: fromPromise<{ page: QueuePage; cohorts: Cohort[] }, { filters: QueueFilters }>(({ input, signal }) =>
      unlessAborted(
        Promise.all([fetchQueue(input.filters, undefined, signal), fetchCohorts(signal)]).then(([page, cohorts]) => ({ page, cohorts })),
        signal,
      ),
    ),
    loadMore: fromPromise<QueuePage, { filters: QueueFilters; after: string }>(({ input, signal }) =>
      unlessAborted(fetchQueue(input.filters, input.after, signal), signal),
    ),
  },
  actions: {
    setFilters: assign(({ context }, params: { filters: QueueFilters }) => {
      const filters = cleanFilters({ ...params.filters, q: context.filters.q });
      return { filters, csvUrl: queueCsvUrl(filters), selected: [] };
    }),
    setSearch: assign(({ context }, params: { q: string }) => {
      const filters = cleanFilters({ ...context.filters, q: params.q });
      return { filters, csvUrl: queueCsvUrl(filters), selected: [] };
    }),
    storeFirstPage: assign((_, output: { page: QueuePage; cohorts: Cohort[] }) => ({
      requests: output.page.requests,
      next: output.page.next,
      counts: output.page.counts,
      cohorts: output.cohorts,
      error: null,
    })),
    storeNextPage: assign(({ context }, page: QueuePage) => ({
      requests: [...context.requests, ...page.requests.filter((request) => !context.requests.some((shown) => shown.id === request.id))],
      next: page.next,
      counts: page.counts,
      error: null,
    })),
    clearSelection: assign({ selected: [] }),
    toggle: assign(({ context }, params: { id: string }) => ({
      selected: context.selected.includes(params.id) ? context.selected.filter((id) => id !== params.id) : [...context.selected, params.id],
    })),
    selectAll: assign(({ context }) => ({ selected: selectable(context.requests) })),
    storeError: assign({ error: (_, params: { error: unknown }) => problemText(params.error) }),
    clearError: assign({ error: null }),
    // the view's: the address shows the filters (replacing the history entry), and the session hears of a 401
    writeAddress: () => {},
    endSession: () => {},
  },
  guards: {
    hasMore: ({ context }) => context.next !== null,
    hasUnselected: ({ context }) => selectable(context.requests).some((id) => !context.selected.includes(id)),
    hasSelection: ({ context }) => context.selected.length > 0,
    isSelectable: ({ context }, params: { id: string }) => selectable(context.requests).includes(params.id),
    sessionEnded: (_, params: { error: unknown }) => sessionEnded(params.error),
  },
  delays: { searchDebounce: QUEUE_SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'teamQueue',
  description: "The team's queue (/team): every invite and privacy request, filtered, a page at a time, with a selection for bulk decisions.",
  context: ({ input }) => {
    const filters = cleanFilters(input.filters);
    return { filters, requests: [], next: null, counts: {}, cohorts: [], selected: [], csvUrl: queueCsvUrl(filters), error: null };
  },
  initial: 'loading',
  on: {
    'queue.filter': {
      target: '.loading',
      actions: [{ type: 'setFilters', params: ({ event }) => ({ filters: event.filters }) }, 'writeAddress'],
      description: 'A kind, state or cohort chosen: the address shows it, the selection is emptied, the first page is asked at once.',
    },
    'queue.search': {
      target: '.debouncing',
      actions: [{ type: 'setSearch', params: ({ event }) => ({ q: event.q }) }, 'writeAddress'],
      description: 'Text typed in the search (name, email, company): the address shows it; the queue is asked once the typing pauses.',
    },
    'queue.reload': {
      target: '.loading',
      actions: 'clearSelection',
      description: 'A decision was taken: the first page and the counts are asked again, the selection emptied.',
    },
  },
  states: {
    loading: {
      description: 'GET /api/team/requests with the filters (the first page, the counts) and GET /cohorts.',
      invoke: {
        id: 'loadQueue',
        src: 'loadQueue',
        input: ({ context }) => ({ filters: context.filters }),
        onDone: { target: 'ready', actions: { type: 'storeFirstPage', params: ({ event }) => event.output }, description: 'The first page and the counts are shown.' },
        onError: [
          sessionEndedTransition({ description: '401: the session ended; the console asks the member to sign in again.' }),
          { target: 'failed', actions: storeCallError, description: 'No answer, or an error: said, with a way to try again.' },
        ],
      },
    },
    debouncing: {
      description: 'The member is typing: the queue is asked once no key came for the debounce time.',
      after: { searchDebounce: { target: 'loading', description: 'The typing paused: the first page of the search is asked.' } },
    },
    ready: {
      description: 'A page (or more) is shown, with the counts per state; the member moves, opens, selects.',
      on: {
        'queue.loadMore': { guard: 'hasMore', target: 'loadingMore', actions: 'clearError', description: 'Load more: the next page, by the cursor of the last.' },
        'queue.toggle': {
          guard: { type: 'isSelectable', params: ({ event }) => ({ id: event.id }) },
          actions: { type: 'toggle', params: ({ event }) => ({ id: event.id }) },
          description: 'An invite request is selected, or no longer (Space or x on its row, or its checkbox).',
        },
        'queue.selectAll': { guard: 'hasUnselected', actions: 'selectAll', description: 'Every invite request shown is selected.' },
        'queue.clearSelection': { guard: 'hasSelection', actions: 'clearSelection', description: 'Nothing is selected any more.' },
      },
    },
    loadingMore: {
      description: 'GET the next page (`after=` the cursor); what is shown stays.',
      invoke: {
        id: 'loadMore',
        src: 'loadMore',
        input: ({ context }) => ({ filters: context.filters, after: context.next ?? '' }),
        onDone: { target: 'ready', actions: { type: 'storeNextPage', params: ({ event }) => event.output }, description: 'The next page is added below.' },
        onError: [
          sessionEndedTransition(),
          { target: 'ready', actions: storeCallError, description: 'No answer, or an error: said; what was shown stays, and Load more tries again.' },
        ],
      },
    },
    failed: {
      description: 'The queue could not be loaded: why, and Try again.',
      on: { 'queue.retry': { target: 'loading', actions: 'clearError', description: 'Try again.' } },
    },
  },
});
