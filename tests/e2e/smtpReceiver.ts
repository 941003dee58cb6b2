// A local SMTP server for the e2e suite (playwright.config.ts starts it): accepts every message (no TLS,
// no authentication) and writes it whole as `<time>-<n>.eml` into E2E_SMTP_DIR, for the tests to read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { E2E_SMTP_DIR, E2E_SMTP_PORT } from './constants';

mkdirSync(E2E_SMTP_DIR, { recursive: true });
let count = 0;
new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      count += 1;
      writeFileSync(join(E2E_SMTP_DIR, `${Date.now()}-${count}.eml`), Buffer.concat(chunks));
      callback();
    });
  },
}).listen(E2E_SMTP_PORT, '127.0.0.1');
