import type { Command } from 'commander';
import { addMember, listMembers, newEnrollmentLink, removeMember, type Enrollment, type EnrollmentMailer } from '../db/team.ts';
import { enrollmentMail } from '../outbox/enrollmentMail.ts';
import { utcMinute } from '../outbox/messages/teamEnrollment.ts';
import { ExitError, memberEmail, oneLineName } from './arguments.ts';
import type { CommandContext } from './context.ts';
import { forTerminal, table } from './terminal.ts';

/** The console's path that registers a passkey from an enrollment link (the token in the fragment, never sent in a request line). */
const ENROLL_PATH = '/team/enroll';

const MAILED = 'The link is mailed to them too (the running server sends it)';

/**
 * `team add <email>`, `team list`, `team link <email>` and `team remove <email>`: who may use the console at
 * `/team`. The command line on the server is the root of trust: only it adds members and gives them an
 * enrollment link (single use, 24 h; a new one ends the earlier ones), which registers a passkey. The
 * link is printed, and mailed to the member through the outbox in the same transaction (the mail is
 * sent by the running server, or written to `SONDE_MAIL_DIR` without SMTP).
 */
export function addTeamCommands(program: Command, { io, withDb }: CommandContext): void {
  const originOf = () => {
    if (!io.publicOrigin) throw new ExitError('the public origin is not known: set SONDE_PUBLIC_ORIGIN', 1);
    return io.publicOrigin;
  };
  const linkOf = (token: string) => `${originOf()}${ENROLL_PATH}#token=${token}`;
  const linkText = (enrollment: Enrollment) => `${linkOf(enrollment.token)} (single use, good until ${utcMinute(enrollment.expiresAt)})`;
  const mailer: EnrollmentMailer = ({ deliveryId, to, token, expiresAt }) => {
    if (!io.mailFrom) throw new ExitError('the mail sender is not known: set SONDE_MAIL_FROM', 1);
    return enrollmentMail(io.mailFrom, { deliveryId, to, link: linkOf(token), expiresAt, siteUrl: originOf() });
  };
  const team = program.command('team').description('the team members who may sign in to the console at /team with a passkey');

  team
    .command('add')
    .description('adds a member, prints their enrollment link and mails it to them; it registers a passkey (single use, 24 h)')
    .argument('<email>', "the member's email address", memberEmail)
    .option('--name <name>', "the member's name", oneLineName)
    .action(async (address: string, options: { name?: string }) => {
      const enrollment = await withDb('write', (db) => addMember(db, { email: address, name: options.name ?? null, by: io.user, at: io.now() }, mailer));
      if (!enrollment) throw new ExitError(`${address} is a member already: team link ${address} gives a new enrollment link`, 1);
      io.out(`${address} added. Enrollment link: ${linkText(enrollment)}`);
      io.out(MAILED);
    });

  team
    .command('link')
    .description("prints a new enrollment link for a member and mails it to them (a second device, or a lost one); earlier links stop working, the member's passkeys stay")
    .argument('<email>', "the member's email address", memberEmail)
    .action(async (address: string) => {
      const enrollment = await withDb('write', (db) => newEnrollmentLink(db, address, io.now(), mailer));
      if (!enrollment) throw new ExitError(`${address} is not a member: add them with team add`, 1);
      io.out(`Enrollment link for ${address}: ${linkText(enrollment)}`);
      io.out(`${MAILED}; earlier links of theirs no longer work`);
    });

  team
    .command('remove')
    .description("removes a member: their passkeys, links and unsent link mail are deleted and every session of theirs ends at once")
    .argument('<email>', "the member's email address", memberEmail)
    .action(async (address: string) => {
      const removed = await withDb('write', (db) => removeMember(db, address, io.now(), io.user));
      if (!removed) throw new ExitError(`${address} is not a member`, 1);
      io.out(`${address} removed: their passkeys are revoked and their sessions ended`);
    });

  team
    .command('list')
    .description('every member: email, name, passkeys, open sessions, when added and by whom; removed members too')
    .action(async () => {
      const members = await withDb('read', (db) => listMembers(db, io.now()));
      if (members.length === 0) return io.out('no team members: add one with team add <email>');
      io.out(
        table(
          ['email', 'name', 'passkeys', 'sessions', 'added (UTC)', 'by', 'removed (UTC)'],
          members.map((m) =>
            [m.email, m.name ?? '', String(m.passkeys), String(m.sessions), m.addedAt.toISOString().slice(0, 16).replace('T', ' '), m.addedBy, m.removedAt ? m.removedAt.toISOString().slice(0, 16).replace('T', ' ') : ''].map(forTerminal),
          ),
        ),
      );
    });
}
