import { within, type ByRoleMatcher } from '@testing-library/dom';

/**
 * The elements of `role` in `container` with each of `names` as accessible name, in the order of `names`:
 * what `getByRole(role, { name })` finds for each name (the exact name, not hidden, exactly one), found in
 * one pass that computes each candidate's accessible name once. One `getByRole` per name would compute
 * every candidate's name again for each of them (computing a name reads jsdom's computed styles of the
 * label's subtree: about 3 ms a field in the invite form). Throws, naming the role and name, where a
 * name matches no element or more than one.
 */
export function getAllByRoleNamed(container: HTMLElement, role: ByRoleMatcher, names: readonly string[]): HTMLElement[] {
  const named = new Map<string, HTMLElement[]>();
  const shown = new Set(
    within(container).queryAllByRole(role, {
      name: (name, element) => {
        named.set(name, [...(named.get(name) ?? []), element as HTMLElement]);
        return true;
      },
    }),
  );
  return names.map((name) => {
    const found = (named.get(name) ?? []).filter((element) => shown.has(element));
    if (found.length !== 1) throw new Error(`${found.length === 0 ? 'no' : found.length} accessible ${String(role)} named "${name}"`);
    return found[0]!;
  });
}
