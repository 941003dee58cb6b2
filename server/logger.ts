import { pino, type Logger } from 'pino';
import { REFUSAL_LOG_INTERVAL_MS } from './limits.ts';

export type { Logger };

/**
 * Keys that hold a visitor's text or a statement's values wherever they appear in a log object (one
 * level deep too): they are removed, never written. The logger's callers log ids and kinds only; this
 * is the net under that rule.
 */
const PERSONAL_KEYS = [
  'body',
  'data',
  'params',
  'parameters',
  'query',
  'detail',
  'email',
  'workEmail',
  'fullName',
  'companyName',
  'clientIP',
  'clientIp',
  'ip',
  'userAgent',
  'browserId',
  'headers',
];

/** What a log line keeps of an error: its kind, its codes and where it was thrown, never its values. */
export interface LoggedError {
  type: string;
  /** a SQLSTATE (`23514`) or Node's code (`ECONNREFUSED`), its cause's when it has none */
  code?: string;
  /** the message with every quoted part replaced by `"…"`; absent for Drizzle's wrapper, whose message is the statement with its parameters */
  message?: string;
  /** the stack's frames, without its first line (the message) */
  stack?: string;
  cause?: LoggedError;
}

// `"Ada Lovela"... is not valid JSON`, `invalid input syntax for type uuid: "x"`, `'ada@…'`
const QUOTED = /"[^"]*"|'[^']*'/g;
const MAX_CAUSES = 5;

/**
 * The error serializer of every log line (`err`). An error of the database driver carries the failed
 * statement, its parameters (a submission's body, email and IP hash) and PostgreSQL's `detail` (the
 * failing row); Drizzle's wrapper puts statement and parameters in its message. None of those is
 * written: only the error's type, code, a message with its quoted values masked, the stack frames,
 * and the same of its causes.
 * @returns the loggable shape; a thrown value that is not an Error becomes `{ type: typeof value }`
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  const wrapsStatement = 'query' in error || 'params' in error || error.message.startsWith('Failed query:');
  const logged: LoggedError = { type: error.name || error.constructor.name };
  if (typeof code === 'string' || typeof code === 'number') logged.code = String(code);
  if (!wrapsStatement) logged.message = error.message.replace(QUOTED, '"…"');
  const frames = error.stack?.split('\n').filter((line) => line.trimStart().startsWith('at '));
  if (frames && frames.length > 0) logged.stack = frames.join('\n');
  if (error.cause !== undefined && depth < MAX_CAUSES) logged.cause = serializeError(error.cause, depth + 1);
  // Drizzle's wrapper has no code of its own: the driver's SQLSTATE is the one to read first.
  if (logged.code === undefined && logged.cause?.code !== undefined) logged.code = logged.cause.code;
  return logged;
}

/** The levels `SONDE_LOG_LEVEL` takes: pino's, and `silent`. */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/**
 * `SONDE_LOG_LEVEL` as a level: in any case, as pino takes it (`INFO` is `info`); unset or empty is `info`.
 * @throws Error naming the variable and the levels when it is none of {@link LOG_LEVELS}
 */
export function logLevelOf(value: string | undefined): (typeof LOG_LEVELS)[number] {
  if (value === undefined || value === '') return 'info';
  const level = LOG_LEVELS.find((known) => known === value.toLowerCase());
  if (!level) throw new Error(`SONDE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${value}"`);
  return level;
}

/**
 * The server's one logger: structured JSON lines on stdout (pino). No submission body, query
 * parameter or personal field reaches a line at any level: callers log ids and kinds, errors go
 * through {@link serializeError}, and {@link PERSONAL_KEYS} are removed wherever they appear.
 * @param level - {@link logLevelOf} `SONDE_LOG_LEVEL`, else `info`; `silent` in tests
 * @throws Error naming `SONDE_LOG_LEVEL` when it is no level (the server does not start)
 */
export function createLogger(level: string = logLevelOf(process.env.SONDE_LOG_LEVEL), destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'sonde-server' },
      serializers: { err: serializeError, error: serializeError },
      redact: { paths: [...PERSONAL_KEYS, ...PERSONAL_KEYS.map((key) => `*.${key}`)], remove: true },
    },
    destination,
  );
}

/** How the server logs the requests it refuses: {@link createRefusalLog}, or {@link everyRefusal}. */
export interface RefusalLog {
  /**
   * Logs a refused request at info: `fields` (a status, a path; never a visitor's value) and `msg`, a
   * fixed text that names the kind of refusal. Never throws.
   */
  refused(fields: Record<string, unknown>, msg: string): void;
  /** Logs what is counted and not yet logged, and stops the interval; idempotent. */
  close(): void;
}

/**
 * Refusals logged without flooding the log: in each interval of `intervalMs`, the first refusal of a
 * message is logged at once; the others of that message are counted, and logged as one line when the
 * interval ends, with `repeated` (how many) and the fields of the first of them. The messages are the
 * callers' fixed texts, so what is held is bounded by the kinds of refusal, whoever sends them.
 * @param intervalMs - the interval, in ms: {@link REFUSAL_LOG_INTERVAL_MS}; its timer never keeps the process alive
 */
export function createRefusalLog(logger: Logger, intervalMs: number = REFUSAL_LOG_INTERVAL_MS): RefusalLog {
  /** the messages logged in this interval, and how many of each came after (with the first of those's fields) */
  const logged = new Map<string, { more: number; fields?: Record<string, unknown> }>();
  const flush = () => {
    for (const [msg, { more, fields }] of logged) {
      if (more > 0) logger.info({ ...fields, repeated: more }, `${msg} (${more} more since its last line)`);
    }
    logged.clear();
  };
  const timer = setInterval(flush, intervalMs);
  timer.unref();
  return {
    refused(fields, msg) {
      const seen = logged.get(msg);
      if (!seen) {
        logged.set(msg, { more: 0 });
        logger.info(fields, msg);
      } else {
        seen.more += 1;
        seen.fields ??= fields;
      }
    },
    close() {
      clearInterval(timer);
      flush();
    },
  };
}

/** Every refusal logged as it happens (the default of server/http/options.ts `refusals`, for tests and the dev server). */
export function everyRefusal(logger: Logger): RefusalLog {
  return { refused: (fields, msg) => logger.info(fields, msg), close: () => {} };
}
