import type { Db } from '../db/database.ts';

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
  };
  /** Runs the command's reads and writes as one transaction (server/db/teamTransaction.ts `inTeamTransaction`). */
  withDb: <T>(mode: 'read' | 'write', work: (db: Db) => Promise<T>) => Promise<T>;
}
