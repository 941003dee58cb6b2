// @vitest-environment node
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The one-way layering of DESIGN.md §1, as eslint.config.js enforces it: each row is an import that
// `npm run lint` must refuse in that file, and one it must accept. The files exist only as the text
// linted here, which the TypeScript project does not hold: the server's rules that read types (promises
// handled) are left out, the layering rules read none.
const eslint = new ESLint({
  overrideConfig: {
    files: ['server/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
    },
  },
});

async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering enforced by lint', () => {
  it.each([
    ['machines/exampleMachine.ts', "import { useState } from 'react';"],
    ['machines/exampleMachine.ts', "import { Footer } from '@/components/Footer';"],
    ['machines/exampleMachine.ts', "import { collectClientMetadata } from '../src/services/clientMetadata';"],
    ['src/services/example.ts', "import { inviteMachine } from '#machines/inviteMachine';"],
    ['src/services/example.ts', "import { useEffect } from 'react';"],
    ['src/components/Example.tsx', "import { postSubmission } from '@/services/submission';"],
    ['src/components/Example.tsx', "import { AppProviders } from '@/app/providers';"],
    ['src/components/Example.tsx', "import { inviteMachine } from '../../machines/inviteMachine';"],
    ['src/pages/Example.tsx', "import { lookUpClientIp } from '@/services/ipLookup';"],
    ['src/context/example.ts', "import { Footer } from '@/components/Footer';"],
    ['src/utils/example.ts', "import { useEffect } from 'react';"],
    ['src/utils/example.ts', "import { estimate } from '@/estimator/estimate';"],
    ['src/estimator/example.ts', "import { Footer } from '@/components/Footer';"],
    ['src/estimator/example.ts', "import { useState } from 'react';"],
    ['src/hooks/useExample.ts', "import { saveDraft } from '@/services/drafts';"],
    // the folders without a layer of their own still import across folders by alias only
    ['src/app/example.tsx', "import { Footer } from '../components/Footer';"],
    ['src/forms/example.ts', "import { TEXT_LIMITS } from '../../shared/submission';"],
    ['server/example.ts', "import { SUBMIT_ENDPOINT } from '@/config/site';"],
    ['server/example.ts', "import { postSubmission } from '../src/services/submission';"],
    ['shared/example.ts', "import { PRODUCT_NAME } from '@/config/site';"],
    // inside server/: each folder only downward (http/, cli/ → outbox/ → db/), no entry point
    ['server/http/example.ts', "import { runRequests } from '../cli/requests.ts';"],
    ['server/http/example.ts', "import { startServer } from '../main.ts';"],
    ['server/http/example.ts', "import { SUBMIT_ENDPOINT } from '@/config/site';"],
    ['server/cli/example.ts', "import { createApp } from '../http/app.ts';"],
    ['server/cli/example.ts', "import { sondeApi } from '../devServer.ts';"],
    ['server/outbox/example.ts', "import { createApp } from '../http/app.ts';"],
    ['server/outbox/example.ts', "import { runRequests } from '../cli/requests.ts';"],
    ['server/outbox/example.ts', "import { startServer } from '../main.ts';"],
    ['server/outbox/messages/example.ts', "import { createApp } from '../../http/app.ts';"],
    ['server/db/example.ts', "import { startOutbox } from '../outbox/sender.ts';"],
    ['server/db/example.ts', "import { createApp } from '../http/app.ts';"],
    ['server/db/example.ts', "import { runRequests } from '../cli/requests.ts';"],
    ['server/db/example.ts', "import { startServer } from '../main';"],
    // the server asks the decision charts, never the site's machines (they reach the client's services)
    ['server/db/example.ts', "import { inviteMachine } from '#machines/inviteMachine';"],
    ['server/cli/example.ts', "import { inviteReviewMachine } from '../../machines/inviteReviewMachine';"],
    ['machines/inviteReviewMachine.ts', "import { SUBMIT_ENDPOINT } from '@/config/site';"],
    ['server/db/example.ts', "import { verifyMachine } from '#machines/verifyMachine';"],
    ['server/cli/example.ts', "import { privacyCourseMachine } from '../../machines/privacyCourseMachine.ts';"],
    ['machines/privacyCourseMachine.ts', "import { SUBMIT_TIMEOUT_MS } from '@/config/site';"],
  ])('%s may not: %s', async (file, code) => {
    const errors = await layeringErrors(file, `${code}\nexport {};\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/is restricted from being used by a pattern\. Layering: /);
  });

  it.each([
    ['machines/exampleMachine.ts', "import { setup } from 'xstate';\nimport { collectClientMetadata } from '@/services/clientMetadata';\nimport type { SubmissionBody } from '#shared/submission';"],
    ['src/components/Example.tsx', "import { ConsentContext } from '@/context/actors';\nimport { inviteMachine } from '#machines/inviteMachine';"],
    ['src/services/example.ts', "import { SUBMIT_ENDPOINT } from '@/config/site';\nimport type { SubmissionBody } from '#shared/submission';"],
    ['src/utils/example.ts', "import { SUBMIT_ENDPOINT } from '@/config/site';\nimport type { SubmissionBody } from '#shared/submission';"],
    ['src/estimator/example.ts', "import { monthlyCostUsd } from '@/config/site';\nimport { grouped } from '@/utils/format';"],
    ['src/hooks/useExample.ts', "import { useEffect } from 'react';\nimport { draftFromFormData } from '@/forms/draft';\nimport { prefersReducedMotion } from '@/utils/motion';"],
    ['server/example.ts', "import { TEXT_LIMITS } from '#shared/submission';\nimport { createApp } from './http/app.ts';"],
    ['server/http/example.ts', "import { acceptSubmissions } from '../db/submissions.ts';\nimport { startOutbox } from '../outbox/sender.ts';\nimport { VERIFICATION_BODY_MAX_BYTES } from '../limits.ts';\nimport { readConfig } from '../config.ts';"],
    ['server/cli/example.ts', "import { purgeExpired } from '../db/retention.ts';\nimport { removeMailFiles } from '../outbox/mail.ts';\nimport { readConfig } from '../config.ts';"],
    ['server/outbox/example.ts', "import { rowsOf } from '../db/database.ts';\nimport { WEBHOOK_TIMEOUT_MS } from '../limits.ts';"],
    ['server/outbox/messages/example.ts', "import type { PrivacyOutcome } from '../../db/schema.ts';"],
    ['server/db/example.ts', "import * as schema from './schema.ts';\nimport { MAIL_LIMITS } from '../limits.ts';"],
    ['server/db/example.ts', "import { inviteReviewMachine } from '#machines/inviteReviewMachine';\nimport { privacyCourseMachine } from '#machines/privacyCourseMachine';"],
    ['machines/inviteReviewMachine.ts', "import { setup } from 'xstate';\nimport type { SubmissionBody } from '#shared/submission';"],
    ['machines/privacyCourseMachine.ts', "import { setup } from 'xstate';\nimport { RETENTION } from '#shared/policy';"],
  ])('%s may: its allowed imports', async (file, code) => {
    expect(await layeringErrors(file, `${code}\nexport {};\n`)).toEqual([]);
  });

  // machines are the spec of behaviour: the browser reaches them only through services
  it.each(['window', 'document', 'localStorage', 'navigator', 'fetch'])('machines/exampleMachine.ts may not use the global %s', async (global) => {
    const [result] = await eslint.lintText(`export const reached = ${global};\n`, { filePath: 'machines/exampleMachine.ts' });
    expect((result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-globals').map((m) => m.message)).toEqual([`Unexpected use of '${global}'.`]);
  });
});

describe("the server's promises, checked with its types by lint", () => {
  // eslint.config.js as it is, types read: the text is linted as an existing file of the server's
  const typed = new ESLint();
  const promiseErrors = async (code: string) => {
    const [result] = await typed.lintText(code, { filePath: 'server/limits.ts' });
    return (result?.messages ?? []).map((m) => m.ruleId);
  };
  const later = 'async function later(): Promise<void> {}\n';

  it('refuses a promise let go of, one passed where nothing waits for it, and an await of what is no promise', async () => {
    expect(await promiseErrors(`${later}later();\nexport {};\n`)).toEqual(['@typescript-eslint/no-floating-promises']);
    expect(await promiseErrors(`${later}setInterval(later, 1000);\nexport {};\n`)).toEqual(['@typescript-eslint/no-misused-promises']);
    expect(await promiseErrors('const done = 1;\nawait done;\nexport {};\n')).toEqual(['@typescript-eslint/await-thenable']);
  }, 60_000);

  it('takes one that is awaited, caught, or marked void', async () => {
    expect(await promiseErrors(`${later}await later();\nlater().catch(() => {});\nsetInterval(() => void later(), 1000);\nexport {};\n`)).toEqual([]);
  }, 60_000);
});
