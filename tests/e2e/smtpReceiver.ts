// A local SMTP server for the e2e suite (playwright.config.ts starts it): the tests' own
// (tests/support/mailServer.ts), writing each message it accepts, whole, as `<time>-<n>.eml` into
// E2E_SMTP_DIR, for the tests to read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { smtpServer } from '../support/mailServer';
import { E2E_SMTP_DIR, E2E_SMTP_PORT } from './constants';

mkdirSync(E2E_SMTP_DIR, { recursive: true });
let count = 0;
await smtpServer(E2E_SMTP_PORT, false, ({ raw }) => {
  count += 1;
  writeFileSync(join(E2E_SMTP_DIR, `${Date.now()}-${count}.eml`), raw);
});
