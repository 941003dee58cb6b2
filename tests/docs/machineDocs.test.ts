import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { transitionsOf } from '../../scripts/machineGraph';
import { documentedMachines, renderMachineDocs } from '../../scripts/machineDocs';

describe('docs/machines.md', () => {
  it('is what `npm run docs:machines` generates from the machines now', () => {
    const committed = readFileSync('docs/machines.md', 'utf8');
    // On failure: run `npm run docs:machines` and commit docs/machines.md with the machine change.
    expect(committed).toBe(renderMachineDocs());
  });

  it('has a diagram and a row for every transition of every machine', () => {
    const docs = renderMachineDocs();
    for (const { machine } of documentedMachines) {
      expect(docs).toContain(`## ${machine.id}`);
      const section = docs.slice(docs.indexOf(`## ${machine.id}`));
      const transitionRows = section.slice(section.indexOf('### Transitions')).split('\n## ')[0]!.split('\n').filter((line) => line.startsWith('| `'));
      expect(transitionRows).toHaveLength(transitionsOf(machine).length);
    }
    expect(docs.match(/```mermaid/g)).toHaveLength(documentedMachines.length);
  });
});
