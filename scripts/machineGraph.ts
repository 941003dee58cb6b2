import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * Reads the transitions of a machine from its definition: the one list that the generated docs
 * (docs/machines.md) and the model-based coverage test (tests/model) both use.
 */

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

/** Every state node of a machine, root first, depth-first in document order. */
export function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  const walk = (node: AnyStateNode): AnyStateNode[] => [node, ...Object.values(node.states).flatMap(walk)];
  return walk(machine.root);
}

function candidatesOf(t: AnyTransitionDefinition): readonly AnyTransitionDefinition[] {
  return t.eventType === '' ? (t.source.always ?? []) : (t.source.transitions.get(t.eventType) ?? []);
}

/** The key of a transition definition (see {@link TransitionRow.key}). */
export function transitionKey(t: AnyTransitionDefinition): string {
  return `${t.source.id} | ${t.eventType || 'always'} | #${candidatesOf(t).indexOf(t)}`;
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
  // Built-in combinators (`not(...)`) are functions carrying `type` and the `guards` they wrap.
  const combinator = guard as { type?: unknown; guards?: unknown[] };
  if (combinator.type === 'xstate.not') return `not ${guardName(combinator.guards?.[0]) ?? '(…)'}`;
  return nameOf(guard);
}

/** A reader's name for an event type, with the delay's value for `after` events. */
export function describeEvent(machine: AnyStateMachine, eventType: string): string {
  if (eventType === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) {
    const delay = after[1]!;
    const value = (machine.implementations.delays as Record<string, unknown>)[delay];
    return typeof value === 'number' ? `after ${delay} (${value} ms)` : `after ${delay}`;
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
    const definitions = [...node.transitions.values()].flat().concat(node.always ?? []);
    for (const t of definitions) {
      rows.push({
        key: transitionKey(t),
        source: node.id,
        eventType: t.eventType,
        event: describeEvent(machine, t.eventType),
        targets: (t.target ?? []).map((target) => target.id),
        guard: guardName(t.guard),
        actions: t.actions.map(nameOf),
        description: (t as { description?: string }).description,
        reenter: t.reenter,
      });
    }
  }
  return rows;
}
