import axe from 'axe-core';

/**
 * axe-core's WCAG 2.2 A and AA rules over `root` in jsdom, as the end-to-end tests run them in Chromium
 * (@axe-core/playwright). Colour contrast needs a real layout, so it is left to those; everything else
 * (names, roles, landmarks, live regions, headings) is checked here.
 * @returns the violations, each as `rule: target…`
 */
export async function axeViolations(root: Element = document.body): Promise<string[]> {
  const results = await axe.run(root, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
