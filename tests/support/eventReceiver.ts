import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Standard Webhooks secret of `bytes` random bytes. */
export const secretOf = (bytes = 32) => `whsec_${randomBytes(bytes).toString('base64')}`;

/** An event receiver on a free port of 127.0.0.1: keeps each POST's raw body and headers, answers with the next of `statuses` (then 204). */
export async function eventReceiver(statuses: number[] = []) {
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      const status = statuses.shift() ?? 204;
      res.writeHead(status, status >= 300 && status < 400 ? { location: '/elsewhere' } : {});
      res.end(status >= 400 ? 'the receiver says: ada@example.com' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/events`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The three Standard Webhooks headers of a received request, as Webhook.verify takes them. */
export const signed = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});
