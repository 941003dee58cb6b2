import {
  getInitialMicrosteps,
  getMicrosteps,
  pathToStateValue,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
} from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { evaluateGuard } from 'xstate/guards';
import { stateNodesOf, transitionKey, transitionsOf } from '../../scripts/machineGraph';

/**
 * Walking a chart's paths against the system it rules: the paths, generated from the chart (xstate/graph),
 * and which of the chart's transitions each step takes, so that a test can show it walked every one
 * (keys of scripts/machineGraph.ts, the list docs/machines.md is written from). Pure: only XState's
 * public functions, no actor started.
 */

/** One generated path: the input the chart starts from and the events, in order, that it takes. */
export interface ChartPath<TEvent extends AnyEventObject = AnyEventObject> {
  input: unknown;
  events: TEvent[];
  /** the events' types, `a → b → c` (or `(start)`) */
  title: string;
}

/**
 * The shortest path to every state that `stateOf` tells apart, from each of `inputs`, over the sample
 * `events` the chart takes (`snapshot.can`). A `stateOf` that also tells apart the event and the state
 * before (`[previous?.value, event?.type, snapshot.value]`) gives every transition a path of its own, for
 * a chart whose context does not tell them apart.
 */
export function chartPaths<TEvent extends AnyEventObject>(
  machine: AnyStateMachine,
  options: {
    inputs: unknown[];
    events: TEvent[];
    stateOf: (snapshot: AnyMachineSnapshot, event: AnyEventObject | undefined, previous: AnyMachineSnapshot | undefined) => unknown;
  },
): Array<ChartPath<TEvent>> {
  return options.inputs.flatMap((input) =>
    getShortestPaths(machine, {
      input,
      events: options.events,
      filterEvents: (snapshot, event) => (snapshot as AnyMachineSnapshot).can(event),
      serializeState: (snapshot, event, previous) =>
        JSON.stringify(options.stateOf(snapshot as AnyMachineSnapshot, event as AnyEventObject | undefined, previous as AnyMachineSnapshot | undefined)),
    }).map((path) => {
      const events = path.steps.slice(1).map((step) => step.event as TEvent); // the first step is xstate.init
      return { input, events, title: events.map((event) => event.type).join(' → ') || '(start)' };
    }),
  );
}

/** The eventless (`always`) transitions taken from `snapshot`: per active atomic state, the first enabled one from it up. */
export function eventlessTaken(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: AnyEventObject): AnyTransitionDefinition[] {
  const active = (node: AnyStateNode) => snapshot.matches(pathToStateValue(node.path));
  const atomic = stateNodesOf(machine).filter((node) => node.path.length > 0 && Object.keys(node.states).length === 0 && active(node));
  const taken = new Set<AnyTransitionDefinition>();
  for (const leaf of atomic) {
    search: for (let node: AnyStateNode | undefined = leaf; node; node = node.parent) {
      for (const t of node.always ?? []) {
        if (!t.guard || evaluateGuard(t.guard, snapshot.context, event, snapshot)) {
          taken.add(t);
          break search;
        }
      }
    }
  }
  return [...taken];
}

/** The keys of the transitions the chart takes as it starts from `input` (its initial eventless ones). */
export function initialTransitionsTaken(machine: AnyStateMachine, input: unknown): string[] {
  const snapshots = getInitialMicrosteps(machine, input).map(([snapshot]) => snapshot as AnyMachineSnapshot);
  return snapshots.slice(1).flatMap((_, i) => eventlessTaken(machine, snapshots[i]!, { type: 'xstate.init', input }).map(transitionKey));
}

/** The keys of the transitions the chart takes on `event` from `before`: the event's, then the eventless ones after it. */
export function transitionsTaken(machine: AnyStateMachine, before: AnyMachineSnapshot, event: AnyEventObject): string[] {
  const after = getMicrosteps(machine, before, event).map(([snapshot]) => snapshot as AnyMachineSnapshot);
  const evented = machine.getTransitionData(before, event).map(transitionKey);
  return [...evented, ...after.slice(0, -1).flatMap((snapshot) => eventlessTaken(machine, snapshot, event).map(transitionKey))];
}

/** The chart's transitions not among `walked`, by key; with how many there are in all. */
export function transitionsMissed(machine: AnyStateMachine, walked: ReadonlySet<string>): { all: number; missed: string[] } {
  const all = transitionsOf(machine);
  return { all: all.length, missed: all.filter((t) => !walked.has(t.key)).map((t) => t.key) };
}
