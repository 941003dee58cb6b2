import { mkdir, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, resolve } from 'node:path';
import getRawBody from 'raw-body';
import type { Plugin } from 'vite';
import { checkSubmissionBody } from './submissionSchema.ts';

/** The path the local inbox answers; `VITE_SUBMIT_ENDPOINT` defaults to it (src/config/site.ts). */
export const INBOX_PATH = '/api/submissions';
/** Largest body the inbox reads, in bytes (64 KB); a larger one is answered 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Where accepted submissions go: `SONDE_INBOX_FILE`, else `.data/submissions.jsonl` in the working directory. */
export function inboxFile(): string {
  return resolve(process.env.SONDE_INBOX_FILE ?? '.data/submissions.jsonl');
}

type Next = (error?: unknown) => void;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Appends one line and waits until it is on disk (fsync) before returning. */
async function appendDurably(file: string, line: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const handle = await open(file, 'a');
  try {
    await handle.appendFile(line, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Connect middleware for `POST /api/submissions`: the local stand-in for the serverless function
 * of spec §7.1. Accepts `application/json` bodies of at most {@link MAX_BODY_BYTES}, checks them
 * (server/submissionSchema.ts), appends one JSON line per accepted submission to `file` and answers
 * 201 `{ "ok": true }`. Answers 400 `{ "error": "<first problem>" }` for a bad body, 413 for an
 * oversized one, 415 for another content type and 405 for another method, writing nothing then.
 */
export function createInboxMiddleware(options: { file: string; log?: (line: string) => void }) {
  const log = options.log ?? ((line: string) => console.log(line));
  return async (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== INBOX_PATH) return next();
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'Use POST' }, { Allow: 'POST' });
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return sendJson(res, 415, { error: 'Content-Type must be application/json' });
    }
    let raw: string;
    try {
      raw = await getRawBody(req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });
    } catch (error) {
      const tooLarge = (error as { type?: string }).type === 'entity.too.large';
      return sendJson(res, tooLarge ? 413 : 400, {
        error: tooLarge ? `Body is larger than ${MAX_BODY_BYTES} bytes` : 'Body could not be read',
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return sendJson(res, 400, { error: 'Body is not valid JSON' });
    }
    const checked = checkSubmissionBody(parsed);
    if (!checked.ok) return sendJson(res, 400, { error: checked.problem });
    try {
      const receivedAt = new Date().toISOString();
      await appendDurably(options.file, `${JSON.stringify({ receivedAt, ...checked.body })}\n`);
    } catch (error) {
      console.error('[inbox] could not store the submission', error);
      return sendJson(res, 500, { error: 'Submission could not be stored' });
    }
    const { fullName, workEmail, roleTitle } = checked.body.data;
    log(`[inbox] ${new Date().toISOString()} stored submission from ${fullName} <${workEmail}> (${roleTitle})`);
    return sendJson(res, 201, { ok: true });
  };
}

/** Vite plugin: serves the inbox from `vite` (dev) and `vite preview` (`npm start`). */
export function submissionsInbox(): Plugin {
  const middleware = () => createInboxMiddleware({ file: inboxFile() });
  return {
    name: 'sonde-submissions-inbox',
    configureServer(server) {
      server.middlewares.use(middleware());
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware());
    },
  };
}
