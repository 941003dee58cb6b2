import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, getInitialMicrosteps, type AnyMachineSnapshot, type AnyTransitionDefinition } from 'xstate';
import { stateNodesOf, transitionKey, transitionsOf } from '../../scripts/machineGraph';
import { generatePaths, models, type Model } from './models';
import { eventlessTaken } from '../support/chartWalk';

/**
 * Replays every generated path on a fresh actor (its invoked actors replaced by ones that never settle,
 * so that only the path's own events move it) and records each transition taken. From the actor's
 * `@xstate.microstep` inspection events and the snapshot before each: the first microstep of a sent event
 * takes `machine.getTransitionData(before, event)`; a later one takes the eventless transitions enabled
 * before it, or else those of the raised event it reports. The initial eventless steps come from
 * `getInitialMicrosteps`.
 */
function walkedTransitions(model: Model): Set<string> {
  const walked = new Set<string>();
  const record = (transitions: readonly AnyTransitionDefinition[]) => transitions.forEach((t) => walked.add(transitionKey(t)));
  const inert = fromPromise(() => new Promise<never>(() => {}));
  const invoked = stateNodesOf(model.machine).flatMap((node) => node.invoke.map((i: { src: unknown }) => i.src));
  const actors = Object.fromEntries(invoked.filter((src): src is string => typeof src === 'string').map((src) => [src, inert]));
  const machine = model.machine.provide({ actors });
  for (const path of generatePaths(model)) {
    const initial = getInitialMicrosteps(machine, path.input).map(([snapshot]) => snapshot as AnyMachineSnapshot);
    initial.slice(1).forEach((_, i) => record(eventlessTaken(machine, initial[i]!, { type: 'xstate.init', input: path.input })));

    let before: AnyMachineSnapshot | undefined;
    let firstOfEvent = false;
    const actor = createActor(machine, {
      input: path.input,
      inspect: (inspection) => {
        if (inspection.type !== '@xstate.microstep' || !before || inspection.actorRef !== actor) return;
        const event = inspection.event;
        const eventless = firstOfEvent ? [] : eventlessTaken(machine, before, event);
        record(eventless.length > 0 ? eventless : machine.getTransitionData(before, event));
        firstOfEvent = false;
        before = inspection.snapshot as AnyMachineSnapshot;
      },
    });
    actor.start();
    for (const step of path.steps) {
      before = actor.getSnapshot();
      firstOfEvent = true;
      actor.send(step.event);
    }
    before = undefined;
    actor.stop();
  }
  return walked;
}

describe('model-based tests cover every transition', () => {
  it('generates paths without side effects on the browser (assign actions stay pure)', () => {
    localStorage.clear();
    for (const model of models) generatePaths(model);
    expect(Object.keys(localStorage)).toEqual([]);
  });

  for (const model of models) {
    it(`${model.name}: every transition of the definition is walked by a generated path`, () => {
      const all = transitionsOf(model.machine);
      const walked = walkedTransitions(model);
      const missed = all.filter((t) => !walked.has(t.key)).map((t) => t.key);
      const covered = all.length - missed.length;
      console.info(
        `[model coverage] ${model.name}: ${covered}/${all.length} transitions (${((100 * covered) / all.length).toFixed(0)}%), ` +
          `${generatePaths(model).length} paths`,
      );
      expect(all.length).toBeGreaterThan(0);
      expect(missed).toEqual([]);
    });
  }
});
