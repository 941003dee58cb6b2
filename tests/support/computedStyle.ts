import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What this module reads of jsdom's wrappers and implementations (jsdom's lib/generated/idl/utils.js). */
interface JsdomUtils {
  implForWrapper(wrapper: unknown): unknown;
  wrapperForImpl(impl: unknown): unknown;
}

/** An element's implementation, as far as its document's cache of computed styles goes. */
interface ElementImpl {
  _ownerDocument?: { _styleCache?: WeakMap<object, { _readonly?: boolean }> };
}

/** Marks the wrapped getComputedStyle. */
const REUSES = Symbol.for('sonde.tests.reuseComputedStyles');

/**
 * Makes `window.getComputedStyle(element)` hand back the declaration that jsdom computed and cached for
 * `element`, as long as jsdom keeps it, instead of a new copy of it at each call.
 *
 * jsdom (29) computes an element's style once and keeps it until the DOM or a stylesheet changes (any
 * change empties the document's `_styleCache`); but each later call copies the kept declaration property by
 * property (every value parsed again, border shorthands expanded again), and the copy starts without the
 * declaration's own cache of resolved values, so an inherited property (`visibility`, read by the accessible
 * name of every node under a button) is looked up through the ancestors again. Testing Library and
 * user-event call getComputedStyle tens of thousands of times in a model test (42,000 calls for 5,400
 * computed styles in tests/model/teamQueue.model.test.tsx).
 *
 * The values are jsdom's own and stay as fresh as jsdom's: the declaration handed back is the one jsdom
 * keeps, read-only, and a change to the DOM or the stylesheets drops it as before. Only the identity of the
 * object differs (two calls between two changes return the same object). With a pseudo-element, or where
 * jsdom's internals are not as described (another jsdom version), every call goes to jsdom as before.
 * @param target - the jsdom window of the test environment
 */
export function reuseComputedStyles(target: Window): void {
  // the files of a worker that share one window run the setup file each: wrap jsdom's function once
  if (REUSES in target.getComputedStyle) return;
  let utils: JsdomUtils;
  try {
    const require = createRequire(import.meta.url);
    utils = require(join(dirname(require.resolve('jsdom')), 'generated/idl/utils.js')) as JsdomUtils;
  } catch {
    return;
  }
  const compute = target.getComputedStyle.bind(target);
  const reusing = (element: Element, pseudoElement?: string | null): CSSStyleDeclaration => {
    if (pseudoElement === undefined || pseudoElement === null) {
      const impl = utils.implForWrapper(element) as ElementImpl | null | undefined;
      const kept = impl ? impl._ownerDocument?._styleCache?.get(impl) : undefined;
      if (kept) {
        kept._readonly = true; // as jsdom marks the declarations it hands out (one kept for an ancestor is not yet)
        return utils.wrapperForImpl(kept) as CSSStyleDeclaration;
      }
    }
    return compute(element, pseudoElement);
  };
  target.getComputedStyle = Object.assign(reusing, { [REUSES]: true });
}
