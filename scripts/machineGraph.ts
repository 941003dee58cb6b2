import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { getStateNodes, toDirectedGraph } from 'xstate/graph';
import { QUEUE_SEARCH_DEBOUNCE_MS } from '#machines/teamQueueMachine';
import { IP_LOOKUP_TIMEOUT_MS, OPT_OUT_TOAST_MS, SUBMIT_TIMEOUT_MS, VERIFICATION_TIMEOUT_MS } from '@/config/site';

/**
 * Reads the transitions of a machine from its definition: the one list that the generated docs
 * (docs/machines.md) and the model-based coverage test (tests/model) both use. Only XState's public API:
 * `getStateNodes` and `toDirectedGraph` of `xstate/graph`, and the state nodes' `always` and `initial`.
 */

/**
 * The named delays of the machines and their values in ms, from the constants the machines are set up
 * with (spec §9). Each is checked at its boundary by tests/machines (e.g. the toast at 2999 and 3000 ms).
 */
export const DELAY_VALUES_MS: Readonly<Record<string, number>> = {
  ipLookupTimeout: IP_LOOKUP_TIMEOUT_MS,
  toastDuration: OPT_OUT_TOAST_MS,
  submitTimeout: SUBMIT_TIMEOUT_MS,
  callTimeout: VERIFICATION_TIMEOUT_MS,
  searchDebounce: QUEUE_SEARCH_DEBOUNCE_MS,
};

/** One transition of a machine definition. */
export interface TransitionRow {
  /** stable identity: `<source state id> | <event type or 'always'> | #<index among that state's candidates>` */
  key: string;
  /** state node id, e.g. `invite.form.idle` */
  source: string;
  /** the raw event type (`''` for an eventless `always` transition) */
  eventType: string;
  /** the event as a reader would say it: `form.submit`, `always`, `after ipLookupTimeout (5000 ms)`, `done: submitRequest` */
  event: string;
  /** target state ids; empty for a targetless transition (actions only) */
  targets: string[];
  guard?: string;
  actions: string[];
  description?: string;
  /** true when the transition leaves and re-enters its target (`reenter: true`) */
  reenter: boolean;
}

/** Every state node of a machine, root first, depth-first in document order (`xstate/graph`'s `getStateNodes`). */
export function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  return [machine.root, ...getStateNodes(machine.root)];
}

/** The transition definitions leaving one state node: its events' (`toDirectedGraph`'s edges), then its eventless ones. */
function transitionsFrom(node: AnyStateNode): AnyTransitionDefinition[] {
  const evented = toDirectedGraph(node).edges.map((edge) => edge.transition);
  return [...new Set(evented)].concat(node.always ?? []);
}

/** The key of a transition definition (see {@link TransitionRow.key}). */
export function transitionKey(t: AnyTransitionDefinition): string {
  const candidates = transitionsFrom(t.source).filter((other) => other.eventType === t.eventType);
  return `${t.source.id} | ${t.eventType || 'always'} | #${candidates.indexOf(t)}`;
}

function nameOf(thing: unknown): string {
  if (typeof thing === 'string') return thing;
  if (thing && typeof thing === 'object' && 'type' in thing) {
    const { type } = thing as { type: unknown };
    if (typeof type === 'string') return type;
  }
  if (typeof thing === 'function') return thing.name || '(inline)';
  return '(inline)';
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  // Built-in combinators (`not`, `and`, `or`) are functions named after themselves carrying the `guards` they wrap.
  if (typeof guard === 'function' && 'guards' in guard && Array.isArray(guard.guards)) {
    const operands = guard.guards.map((operand: unknown) => guardName(operand) ?? '(…)');
    return guard.name === 'not' ? `not ${operands[0]}` : operands.join(` ${guard.name} `);
  }
  return nameOf(guard);
}

/** A reader's name for an event type, with the delay's value for `after` events. */
function describeEvent(eventType: string): string {
  if (eventType === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) {
    const delay = after[1]!;
    const value = DELAY_VALUES_MS[delay];
    return value === undefined ? `after ${delay}` : `after ${delay} (${value} ms)`;
  }
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `done: ${done[1]}`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `error: ${error[1]}`;
  return eventType;
}

/** Every transition of a machine, state by state in document order. */
export function transitionsOf(machine: AnyStateMachine): TransitionRow[] {
  const rows: TransitionRow[] = [];
  for (const node of stateNodesOf(machine)) {
    for (const t of transitionsFrom(node)) {
      rows.push({
        key: transitionKey(t),
        source: node.id,
        eventType: t.eventType,
        event: describeEvent(t.eventType),
        targets: (t.target ?? []).map((target) => target.id),
        guard: guardName(t.guard),
        actions: t.actions.map(nameOf),
        description: t.description,
        reenter: t.reenter,
      });
    }
  }
  return rows;
}
