import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it: the envelope, the message as sent, and parsed. */
export interface Received {
  from: string;
  to: string[];
  raw: Buffer;
  mail: ParsedMail;
}

/** A free port on 127.0.0.1, closed again: something can listen on it later. */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A real SMTP server on `port` that accepts every message (no TLS, no authentication), or refuses every
 * recipient with 550; `onReceived` is told of each message it accepts.
 */
export async function smtpServer(port: number, refuse = false, onReceived?: (message: Received) => void) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuse) return callback();
      const error = new Error(`<${address.address}>: Recipient address rejected: User unknown`) as Error & { responseCode: number };
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        void simpleParser(raw).then((mail) => {
          const message = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            mail,
          };
          received.push(message);
          onReceived?.(message);
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Waits until `check` holds, polling every 25 ms; throws after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
