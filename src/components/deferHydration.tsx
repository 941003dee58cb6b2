import { Suspense, lazy, useState, type ComponentType } from 'react';

/** True from the start of the page's first hydration until the last deferred section has hydrated. */
let hydrating = false;
/** Deferred sections not hydrated yet. */
let pending = 0;
let queue: Promise<void> = Promise.resolve();

/**
 * Resolves in a task of its own after every earlier call's task: the sections of a page hydrate one per
 * task, in page order. A section renders in the microtasks of its task (Preact re-renders a resumed
 * `Suspense` in a microtask), so the sections it holds are still deferred, each to a later task; the
 * hydration ends in the task after the last section's.
 */
function nextTask(): Promise<void> {
  pending += 1;
  queue = queue.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  void queue.then(() =>
    setTimeout(() => {
      pending -= 1;
      if (pending === 0) hydrating = false;
    }, 0),
  );
  return queue;
}

/**
 * Runs the first hydration of the page (src/main.tsx): the sections made with {@link deferHydration}
 * that render during `hydrate`, and those inside them, are hydrated later, each in a task of its own.
 * @param hydrate - a synchronous hydration, e.g. `() => hydrateRoot(root, app)`
 */
export function hydrateInTasks(hydrate: () => void): void {
  hydrating = true;
  try {
    hydrate();
  } finally {
    if (pending === 0) hydrating = false;
  }
}

/**
 * Issue #13: a section of a prerendered page whose hydration waits for a task of its own, so that
 * hydrating a long page (`/`: about 160 ms at Lighthouse's 4x CPU slowdown in one task) does not block
 * the main thread for longer than a section takes. Until then its prerendered DOM stays as it is: Preact
 * keeps the DOM of a component that suspends while hydrating, and hydrates it when the component resumes.
 * Rendered any other way (the prerender, a client-side navigation once the page has hydrated, tests),
 * the section renders at once.
 * The section must render one root element; it has a `Suspense` boundary of its own, so it needs none around it.
 * @param Section - the section's component
 * @returns a component with the same props
 */
export function deferHydration<P extends object>(Section: ComponentType<P>): ComponentType<P> {
  let Deferred: ComponentType<P> | undefined;
  function DeferredHydration(props: P) {
    // Chosen once per instance, so that the section is never remounted (a form keeps what was typed).
    const [deferred] = useState(() => hydrating);
    if (!deferred) return <Section {...props} />;
    Deferred ??= lazy(() => nextTask().then(() => ({ default: Section })));
    // a boundary of its own, so that a section needs none around it (the layout's header and footer)
    return (
      <Suspense fallback={null}>
        <Deferred {...props} />
      </Suspense>
    );
  }
  DeferredHydration.displayName = `DeferHydration(${Section.displayName ?? Section.name})`;
  return DeferredHydration;
}
