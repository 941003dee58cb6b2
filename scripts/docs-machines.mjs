// Writes docs/machines.md from the machine definitions (`npm run docs:machines`).
// The machines import src/config/site.ts, which reads import.meta.env: load them through Vite.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const { module } = await runnerImport('./scripts/machineDocs.ts', {
  configFile: false,
  logLevel: 'error',
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('../src', import.meta.url)),
    },
  },
});
await writeFile('docs/machines.md', module.renderMachineDocs());
console.log('wrote docs/machines.md');
