import type { Command } from 'commander';
import { digestIsEmpty, queueDigest, readDigest } from '../db/digest.ts';
import { reminderMailers } from '../outbox/digest.ts';
import { teamDigest } from '../outbox/messages/teamDigest.ts';
import { ExitError } from './arguments.ts';
import type { CommandContext } from './context.ts';
import { forTerminal } from './terminal.ts';

/** What `digest` prints when the day's digest would say nothing (and the schedule would send no mail). */
const NOTHING_NEEDS_THE_TEAM = 'nothing needs the team';

/**
 * `digest [--send]`: the team's daily digest (server/db/digest.ts) as its mail would say it, now. Without
 * `--send` it prints the subject and text and changes nothing. With `--send` it queues it now to every
 * active member through the outbox (the running server sends it), records today's UTC day so that the
 * scheduled digest (`SONDE_TEAM_DIGEST_HOUR`) sends no second one that day, and writes one `digest sent`
 * row to the team's audit; with nothing to say it queues nothing and records nothing.
 */
export function addDigestCommands(program: Command, { io, withDb }: CommandContext): void {
  program
    .command('digest')
    .description("prints today's team digest (privacy requests due or unverified, invites waiting, deliveries given up, cohorts starting); --send mails it now")
    .option('--send', "queue it now to every active team member (the running server sends it); the scheduled one is then not sent again today")
    .action(async (options: { send?: boolean }) => {
      if (!io.publicOrigin) throw new ExitError('the public origin is not known: set SONDE_PUBLIC_ORIGIN', 1);
      const siteUrl = io.publicOrigin;
      if (!options.send) {
        const digest = await withDb('read', (db) => readDigest(db, io.now()));
        if (digestIsEmpty(digest)) return io.out(`${digest.day}: ${NOTHING_NEEDS_THE_TEAM}`);
        const mail = teamDigest(digest, siteUrl);
        return io.out(`Subject: ${mail.subject}\n\n${mail.text}`.split('\n').map(forTerminal).join('\n'));
      }
      if (!io.mailFrom) throw new ExitError('the mail sender is not known: set SONDE_MAIL_FROM', 1);
      const outcome = await withDb('write', (db) => queueDigest(db, io.now(), 'cli', reminderMailers(io.mailFrom!, siteUrl).digest));
      if (outcome.status === 'queued') io.out(`${outcome.digest.day}: digest queued to ${outcome.mails} team member${outcome.mails === 1 ? '' : 's'} (the running server sends it); the scheduled one is not sent again today`);
      else if (outcome.status === 'empty' && digestIsEmpty(outcome.digest)) io.out(`${outcome.digest.day}: ${NOTHING_NEEDS_THE_TEAM}; no mail queued`);
      else io.out('no active team member to send it to: add one with team add <email>; no mail queued');
    });
}
