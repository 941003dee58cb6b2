// A local webhook receiver for the e2e suite (playwright.config.ts starts it): answers 200 to every POST
// and appends `{ delivery, body }` as one JSON line to E2E_WEBHOOK_FILE; a POST to /events (the signed
// decision events) appends `{ headers, body }`, the body as raw text, to E2E_EVENTS_FILE, for the test to
// verify; GET answers 200 (ready check).
import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import { E2E_EVENTS_FILE, E2E_WEBHOOK_FILE, E2E_WEBHOOK_PORT } from './constants';

mkdirSync(dirname(E2E_WEBHOOK_FILE), { recursive: true });
createServer((req, res) => {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString()));
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/events') {
      const headers = { 'webhook-id': req.headers['webhook-id'], 'webhook-timestamp': req.headers['webhook-timestamp'], 'webhook-signature': req.headers['webhook-signature'] };
      appendFileSync(E2E_EVENTS_FILE, `${JSON.stringify({ headers, body: text })}\n`);
    } else if (req.method === 'POST') {
      appendFileSync(E2E_WEBHOOK_FILE, `${JSON.stringify({ delivery: req.headers['x-sonde-delivery'], body: JSON.parse(text) })}\n`);
    }
    res.end('ok');
  });
}).listen(E2E_WEBHOOK_PORT, '127.0.0.1');
