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

/** How the test SMTP server behaves, beyond accepting every message. */
export interface SmtpBehaviour {
  /** refuse every recipient with 550 */
  refuse?: boolean;
  /** told of each message it accepts (when it has it whole, before its reply to DATA) */
  onReceived?: (message: Received) => void;
  /** wait this long before the reply to DATA, in ms (a server filtering the message) */
  dataDelayMs?: number;
  /** wait this long before every reply it makes through a hook: the greeting, MAIL, RCPT and DATA, in ms */
  replyDelayMs?: number;
  /** the final reply to DATA waits for this promise (a test holds one message back) */
  holdData?: (message: Received) => Promise<void> | void;
  /** answer RCPT TO with 451 (a temporary failure) this many times first */
  tempFailures?: number;
}

/**
 * A real SMTP server on `port` that accepts every message (no TLS, no authentication), or behaves as
 * {@link SmtpBehaviour} says; `received` lists the messages it has whole, `sessions` every connection
 * with whether it closed.
 */
export async function smtpServer(port: number, refuseOrBehaviour: boolean | SmtpBehaviour = false, onReceived?: (message: Received) => void) {
  const behaviour: SmtpBehaviour = typeof refuseOrBehaviour === 'boolean' ? { refuse: refuseOrBehaviour, onReceived } : refuseOrBehaviour;
  const received: Received[] = [];
  const sessions: Array<{ id: string; closed: boolean }> = [];
  let tempFailures = behaviour.tempFailures ?? 0;
  const later = (ms: number | undefined, then: () => void) => (ms ? setTimeout(then, ms) : then());
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(session, callback) {
      sessions.push({ id: session.id, closed: false });
      later(behaviour.replyDelayMs, () => callback());
    },
    onClose(session) {
      const entry = sessions.find((s) => s.id === session.id);
      if (entry) entry.closed = true;
    },
    onMailFrom(_address, _session, callback) {
      later(behaviour.replyDelayMs, () => callback());
    },
    onRcptTo(address, _session, callback) {
      later(behaviour.replyDelayMs, () => {
        if (tempFailures > 0) {
          tempFailures -= 1;
          const error = new Error('Try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          return callback(error);
        }
        if (!behaviour.refuse) return callback();
        const error = new Error(`<${address.address}>: Recipient address rejected: User unknown`) as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        void simpleParser(raw).then(async (mail) => {
          const message = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            mail,
          };
          received.push(message);
          behaviour.onReceived?.(message);
          await behaviour.holdData?.(message);
          later((behaviour.dataDelayMs ?? 0) + (behaviour.replyDelayMs ?? 0), () => callback());
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, sessions, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Waits until `check` holds, polling every 25 ms; throws after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
