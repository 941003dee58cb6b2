import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * The server's one logger: structured JSON lines on stdout (pino). Visitor text never goes into a
 * log line; at `info` a submission is named by its id only (no name, email or IP).
 * @param level - `SONDE_LOG_LEVEL`, else `info`; `silent` in tests
 */
export function createLogger(level: string = process.env.SONDE_LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'sonde-server' } }, destination);
}
