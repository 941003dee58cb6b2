import type { DatabaseLocation, Db } from '../db/database.ts';
import type { TeamConnection } from './connect.ts';

/** What every command module is given: where to print, the clock, the user, and one transaction per command. */
export interface CommandContext {
  io: {
    out: (text: string) => void;
    now: () => Date;
    user: string;
    /** `SONDE_MAIL_DIR`: where the server writes mail without SMTP; `erase` and `purge` delete the person's files there */
    mailDir?: string;
    /** write the signed decision events too (`SONDE_EVENTS_WEBHOOK_URL` is set) */
    events?: boolean;
    /** the site's public origin (server/config.ts `publicOriginOf`): where enrollment links point */
    publicOrigin?: string;
    /** `SONDE_MAIL_FROM`: the sender of the enrollment links' mail */
    mailFrom?: string;
    /** where the server's configuration keeps the data (`DATABASE_URL` or `SONDE_PGLITE_DIR`): where `restore` writes */
    database?: DatabaseLocation;
  };
  /** Runs the command's reads and writes as one transaction (server/db/teamTransaction.ts `inTeamTransaction`). */
  withDb: <T>(mode: 'read' | 'write', work: (db: Db) => Promise<T>) => Promise<T>;
  /** Runs `work` on the connection itself, outside a transaction (`backup` copies the whole database). */
  withConnection: <T>(work: (connection: TeamConnection) => Promise<T>) => Promise<T>;
}
