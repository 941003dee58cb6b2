import type { Command } from 'commander';
import { RETENTION } from '#shared/policy';
import { deliveryIdsOf, eraseSubject, otherSpellingsOf, pendingMailTo, purgeExpired, subjectExport } from '../db/retention.ts';
import { auditCommandLine } from '../db/team.ts';
import { removeMailFiles } from '../outbox/mail.ts';
import { email, ExitError } from './arguments.ts';
import type { CommandContext } from './context.ts';
import { jsonForTerminal } from './terminal.ts';

/** `subject --email`, `erase --email` and `purge`: a person's data (Access/Know, Delete) and the retention periods. */
export function addRetentionCommands(program: Command, { io, withDb }: CommandContext): void {
  program
    .command('subject')
    .description('every stored request and notification sent from one address, as JSON: the answer to an Access/Know or Data Portability request')
    .requiredOption('--email <email>', 'the address the requests were sent from, exactly (the domain in any case, the part before @ as sent; another case, a +tag or a dotted Gmail spelling is another address)', email)
    .action(async (options: { email: string }) => {
      io.out(jsonForTerminal(await withDb('read', (db) => subjectExport(db, options.email))));
    });

  program
    .command('erase')
    .description('deletes every stored request sent from one address, keeping only an erasure record (hashed email, time, count): a Delete request')
    .requiredOption('--email <email>', 'the verified address the requests were sent from, exactly (the domain in any case, the part before @ as sent; another case, a +tag or a dotted Gmail spelling is another address)', email)
    .option('--force', 'erase even though mail to this person is still waiting to be sent (it is then never sent)')
    .action(async (options: { email: string; force?: boolean }) => {
      const { count, deliveries, others } = await withDb('write', async (db) => {
        const pending = await pendingMailTo(db, options.email);
        if (pending > 0 && !options.force) {
          throw new ExitError(
            `${pending} mail(s) to ${options.email} not sent yet (the answer to their request, say): erase once the server has sent them, or add --force`,
            1,
          );
        }
        const erased = { deliveries: await deliveryIdsOf(db, options.email), count: await eraseSubject(db, options.email), others: await otherSpellingsOf(db, options.email) };
        // one entry, without the address or the erased requests' ids: the erasure record keeps its hash and count
        await auditCommandLine(db, { at: io.now(), action: 'decision', name: 'erase' });
        return erased;
      });
      // the .eml copies of their mail, if any: once the rows are gone for good (committed)
      if (io.mailDir) await removeMailFiles(io.mailDir, deliveries);
      io.out(`erased ${count} request${count === 1 ? '' : 's'} of ${options.email}; kept an erasure record (SHA-256 of the email, time, count)${others > 0 ? `; ${otherSpellingsNote(others)}` : ''}`);
    });

  program
    .command('purge')
    .description(
      `deletes what the privacy policy's retention periods have passed: invite requests after ${RETENTION.applicationMonths} months, privacy requests after ${RETENTION.privacyRequestRecordMonths}`,
    )
    .action(async () => {
      const gone = await withDb('write', async (db) => {
        const at = io.now();
        const purged = await purgeExpired(db, at);
        await auditCommandLine(db, { at, action: 'decision', name: 'purge' });
        return purged;
      });
      if (io.mailDir) await removeMailFiles(io.mailDir, gone.deliveryIds);
      io.out(
        `purged ${gone.invite} invite request(s) older than ${RETENTION.applicationMonths} months, ` +
          `${gone.privacy} privacy request(s) and ${gone.records} privacy record(s) older than ${RETENTION.privacyRequestRecordMonths} months, ` +
          `${gone.verificationLinks} verification link(s) of requests answered or past due`,
      );
    });
}

/**
 * What `erase` says of the requests from other spellings of the address's mailbox, which it leaves: each
 * may be someone else's (11 CCR §7060–§7062), so it is erased only on its own verified request.
 */
function otherSpellingsNote(others: number): string {
  return `${others} request${others === 1 ? '' : 's'} from other spellings of this mailbox (another case, +tag, Gmail dots, googlemail.com) left as they are (maybe the same person, maybe not: \`show <id>\` lists them; each is erased on its own verified request)`;
}
