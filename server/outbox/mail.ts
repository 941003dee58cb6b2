import { chmod, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { needsVerification } from '#machines/privacyCourseMachine';
import { privacyRequestTypesOf } from '#shared/submission';
import { verificationLink } from '#shared/verification';
import MailComposer from 'nodemailer/lib/mail-composer';
import { MAIL_CONNECT_TIMEOUT_MS, MAIL_DELIVERY_DEADLINE_MS, MAIL_GREETING_TIMEOUT_MS, MAIL_REPLY_TIMEOUT_MS } from '../limits.ts';
import { inviteAccepted } from './messages/inviteAccepted.ts';
import { inviteAcknowledgment } from './messages/inviteAcknowledgment.ts';
import { inviteDeclined } from './messages/inviteDeclined.ts';
import { inviteWaitlisted } from './messages/inviteWaitlisted.ts';
import type { MailContent } from './messages/layout.ts';
import { privacyConfirmation, type AlsoConfirmed } from './messages/privacyConfirmation.ts';
import { privacyExtension } from './messages/privacyExtension.ts';
import { privacyOutcome } from './messages/privacyOutcome.ts';
import { addressOf } from '../db/mailbox.ts';
import type { PrivacyOutcome } from '../db/schema.ts';
import { teamNewRequest } from './messages/teamNewRequest.ts';
import { PermanentDeliveryError, problemOf } from './failures.ts';
import type { Channel, Delivery } from './channel.ts';

/** The mail settings (server/config.ts). */
export interface MailSettings {
  /** `SONDE_SMTP_URL`: `smtp://user:pass@host:587` or `smtps://…:465`; unset: `.eml` files in `emlDir` */
  smtpUrl: string | undefined;
  /** `SONDE_MAIL_DIR`, default `.data/mail` */
  emlDir: string;
  /** `SONDE_MAIL_FROM`, e.g. `Sonde <hello@sonde.dev>` */
  from: string;
  /** `SONDE_PRIVACY_EMAIL`: the Reply-To of privacy mail, and the address the confirmation names */
  privacyEmail: string;
  /** `SONDE_TEAM_EMAIL`: gets one message per stored request; unset: none */
  teamEmail: string | undefined;
}

/** One message ready to send: the addresses around a {@link MailContent}, and its attachment. */
export interface ComposedMail extends MailContent {
  to: string;
  replyTo?: string;
  /** `privacy-outcome` with `--attach-subject`: the requester's subject export, as a JSON file */
  attachSubjectOf?: string;
}

/** Who a row's mail goes to: the requester's work email, or `SONDE_TEAM_EMAIL` for the team's message. */
function recipientOf(delivery: Delivery, settings: Pick<MailSettings, 'teamEmail'>): string {
  if (delivery.message !== 'team-new-request') return delivery.body.data.workEmail;
  if (!settings.teamEmail) throw new Error('SONDE_TEAM_EMAIL is not set');
  return settings.teamEmail;
}

/**
 * The message of one outbox row, from its template (server/outbox/messages/): to the requester (an
 * invite request's acknowledgment or the team's decision on it, a privacy request's confirmation,
 * outcome or extension), or to the team. A decision's mail states what the decision fixed in the row's
 * payload (the cohort and its start, the reason), as it was then.
 * @param verificationLinks - a privacy confirmation's links to `/privacy-request/verify`, one per
 *   covered request (`delivery.covered`) in its order (null: none for that request)
 * @throws Error when the row names a message this server does not know, an acceptance has no cohort in
 *   its payload, or the team's message has no `SONDE_TEAM_EMAIL` to go to (the row waits and is retried,
 *   so configuring it delivers it)
 */
export function composeMail(delivery: Delivery, settings: Pick<MailSettings, 'privacyEmail' | 'teamEmail'>, siteUrl: string, verificationLinks: ReadonlyArray<string | null> = []): ComposedMail {
  const facts = { receivedAt: delivery.receivedAt, dueAt: delivery.dueAt, siteUrl, privacyEmail: settings.privacyEmail };
  const to = recipientOf(delivery, settings);
  const requester = delivery.body.data.workEmail;
  switch (delivery.message) {
    case 'invite-acknowledgment':
      return { to, ...inviteAcknowledgment(facts) };
    case 'privacy-confirmation': {
      const [first, ...rest] = delivery.covered.length > 0 ? delivery.covered : [delivery];
      const also: AlsoConfirmed[] = rest.map((request, i) => ({
        receivedAt: request.receivedAt,
        dueAt: request.dueAt,
        types: privacyRequestTypesOf(request.body.data.useCaseDescription),
        verificationLink: verificationLinks[i + 1] ?? null,
        otherAddress: addressOf(request.body.data.workEmail) !== addressOf(requester),
      }));
      return {
        to,
        replyTo: settings.privacyEmail,
        ...privacyConfirmation({
          ...facts,
          receivedAt: first!.receivedAt,
          dueAt: first!.dueAt,
          types: privacyRequestTypesOf(first!.body.data.useCaseDescription),
          verificationLink: verificationLinks[0] ?? null,
          also,
        }),
      };
    }
    case 'privacy-outcome': {
      const record = delivery.record;
      if (!record?.outcome) throw new Error('the request has no recorded response');
      return {
        to,
        replyTo: settings.privacyEmail,
        ...(delivery.attachSubject ? { attachSubjectOf: delivery.email } : {}),
        ...privacyOutcome({ ...facts, types: record.requestTypes, outcome: record.outcome as PrivacyOutcome, reason: record.outcomeReason, attached: delivery.attachSubject }),
      };
    }
    case 'privacy-extension': {
      if (!delivery.record?.extensionReason) throw new Error('the request has no recorded extension');
      return { to, replyTo: settings.privacyEmail, ...privacyExtension({ ...facts, reason: delivery.record.extensionReason }) };
    }
    case 'invite-accepted': {
      const { cohort, startsOn } = delivery.payload ?? {};
      if (typeof cohort !== 'string' || typeof startsOn !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(startsOn)) throw new Error('the acceptance has no cohort');
      return { to, ...inviteAccepted({ siteUrl, cohort, startsOn }) };
    }
    case 'invite-waitlisted':
      return { to, ...inviteWaitlisted({ siteUrl }) };
    case 'invite-declined': {
      const reason = delivery.payload?.reason;
      return { to, ...inviteDeclined({ siteUrl, reason: typeof reason === 'string' ? reason : null }) };
    }
    case 'team-new-request':
      return {
        to,
        replyTo: requester,
        ...teamNewRequest({ submissionId: delivery.submissionId, kind: delivery.kind, data: delivery.body.data, receivedAt: delivery.receivedAt, dueAt: delivery.dueAt }),
      };
    default:
      throw new Error(`unknown message ${String(delivery.message)}`);
  }
}

/** How long the SMTP server may take, in ms, each of RFC 5321 §4.5.3.2 (limits.ts). */
export interface MailTimeouts {
  /** to open the connection ({@link MAIL_CONNECT_TIMEOUT_MS}) */
  connectMs: number;
  /** for the greeting ({@link MAIL_GREETING_TIMEOUT_MS}) */
  greetingMs: number;
  /** for any reply, the final reply to DATA included ({@link MAIL_REPLY_TIMEOUT_MS}) */
  replyMs: number;
}

/** The SMTP time-outs of RFC 5321 §4.5.3.2 the mail channel uses unless a test shortens them. */
export const MAIL_TIMEOUTS: MailTimeouts = { connectMs: MAIL_CONNECT_TIMEOUT_MS, greetingMs: MAIL_GREETING_TIMEOUT_MS, replyMs: MAIL_REPLY_TIMEOUT_MS };

/**
 * The mode of each `.eml` file: read and write for the server's user only. A file holds an address and,
 * in a privacy confirmation, a live verification link: personal data, like the database.
 */
export const MAIL_FILE_MODE = 0o600;

/** The mode of the mail directory (`SONDE_MAIL_DIR`): the server's user only. */
export const MAIL_DIR_MODE = 0o700;

/** The domain of an address such as `Sonde <hello@sonde.dev>`: the right-hand side of every Message-ID. */
function domainOf(address: string): string {
  return /@([^\s>]+)>?\s*$/.exec(address)?.[1] ?? 'localhost';
}

/**
 * The mail channel: each row's message, rendered once from its template at its first attempt
 * ({@link Channel.render}; the sender keeps it with the row until it is delivered), then sent as it is
 * on every attempt with nodemailer to the SMTP server of `SONDE_SMTP_URL`, or, without one, written
 * whole (RFC 5322, CRLF) as `<emlDir>/<delivery id>.eml`, so a fresh clone shows exactly what would be
 * sent. The `Message-ID` is `<delivery id@domain of From>`, and a confirmation's verification links are
 * made once: a retry, even after a crash, is the same message with the same links. Automatic mail is
 * marked as such (`Auto-Submitted: auto-generated`, RFC 3834), so that autoresponders do not answer it.
 * A delivery has {@link MAIL_DELIVERY_DEADLINE_MS}; when the sender aborts it, the SMTP connection is closed.
 * A team member's enrollment mail, rendered when it was queued (server/outbox/enrollmentMail.ts), goes
 * through {@link Channel.deliverRendered} the same way, to the member's address.
 * @param siteUrl - the site's public origin, for the links in the messages
 * @param subjectOf - everything stored about one person (server/db/retention.ts `subjectExport`), read when
 *   a response carries it as an attachment: when it is rendered, so it is what is stored then
 * @param issueToken - a new verification token for a privacy request, or null when it needs none
 *   (server/db/verificationLinks.ts `issueVerificationToken`): called once per request a confirmation covers
 *   that needs its requester's identity confirmed and came from the very address the confirmation goes to
 *   (server/db/mailbox.ts `addressOf`), when the confirmation is rendered
 * @param options - `timeouts`: the SMTP time-outs ({@link MAIL_TIMEOUTS} by default; tests shorten them)
 */
export function mailChannel(
  settings: MailSettings,
  siteUrl: () => string,
  subjectOf: (email: string) => Promise<unknown>,
  issueToken: (requestId: string) => Promise<string | null>,
  options: { timeouts?: Partial<MailTimeouts> } = {},
): Channel {
  const timeouts = { ...MAIL_TIMEOUTS, ...options.timeouts };
  const transport = settings.smtpUrl
    ? nodemailer.createTransport({
        url: settings.smtpUrl,
        connectionTimeout: timeouts.connectMs,
        greetingTimeout: timeouts.greetingMs,
        socketTimeout: timeouts.replyMs,
      })
    : undefined;
  const render = async (delivery: Delivery): Promise<string> => {
    const links: Array<string | null> = [];
    if (delivery.message === 'privacy-confirmation') {
      const requests = delivery.covered.length > 0 ? delivery.covered : [{ id: delivery.submissionId, body: delivery.body }];
      for (const request of requests) {
        // a link confirms the identity of the address it reaches (11 CCR §7060): a request from another
        // spelling of this mailbox (a +tag, Gmail's dots), which joined its waiting confirmation, gets none
        const needsLink =
          needsVerification(privacyRequestTypesOf(request.body.data.useCaseDescription)) && addressOf(request.body.data.workEmail) === addressOf(delivery.body.data.workEmail);
        const token = needsLink ? await issueToken(request.id) : null;
        links.push(token === null ? null : verificationLink(siteUrl(), token));
      }
    }
    const mail = composeMail(delivery, settings, siteUrl(), links);
    const attachment = mail.attachSubjectOf
      ? { filename: 'sonde-personal-information.json', contentType: 'application/json', content: JSON.stringify(await subjectOf(mail.attachSubjectOf), null, 2) }
      : undefined;
    return buildMail(settings.from, delivery.id, mail, attachment);
  };
  // the same message on every attempt: to the SMTP server, or whole into <emlDir>/<delivery id>.eml
  const send = async (message: { id: string; to: string; raw: string }, signal: AbortSignal): Promise<'sent' | 'written'> => {
    if (transport) {
      await transport.sendMail({ envelope: { from: settings.from, to: message.to }, raw: message.raw, signal }).catch((error: unknown) => {
        throw signal.aborted ? new Error(`SMTP session closed: ${problemOf(signal.reason)}`) : smtpProblem(error);
      });
      return 'sent';
    }
    await mkdir(settings.emlDir, { recursive: true, mode: MAIL_DIR_MODE });
    await chmod(settings.emlDir, MAIL_DIR_MODE); // made by an earlier version with the umask's 0755
    const file = mailFile(settings.emlDir, message.id);
    // written whole or not at all: a reader never sees half a message
    await writeFile(`${file}.tmp`, message.raw, { mode: MAIL_FILE_MODE });
    await rename(`${file}.tmp`, file);
    return 'written';
  };
  return {
    name: 'mail',
    deadlineMs: MAIL_DELIVERY_DEADLINE_MS,
    render,
    async deliver(delivery, signal) {
      return send({ id: delivery.id, to: recipientOf(delivery, settings), raw: delivery.rendered ?? (await render(delivery)) }, signal);
    },
    deliverRendered: send,
  };
}

/**
 * One message as the mail channel sends it (RFC 5322, CRLF): From `from`, its `Message-ID`
 * `<delivery id@domain of From>` (every attempt is the same message), marked as automatic mail
 * (`Auto-Submitted: auto-generated`, RFC 3834) so that autoresponders do not answer it.
 * @param attachment - a JSON file to attach (a response's subject export)
 */
export async function buildMail(
  from: string,
  deliveryId: string,
  mail: Omit<ComposedMail, 'attachSubjectOf'>,
  attachment?: { filename: string; contentType: string; content: string },
): Promise<string> {
  const message = await new MailComposer({
    from,
    to: mail.to,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    ...(attachment ? { attachments: [attachment] } : {}),
    messageId: `<${deliveryId}@${domainOf(from)}>`,
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
  })
    .compile()
    .build();
  return message.toString('utf8');
}

/**
 * An SMTP failure as the outbox keeps it: the reply code and the command, or the network's error code,
 * never the server's reply text (it quotes the recipient's address). A 5xx reply is final
 * ({@link PermanentDeliveryError}: an unknown mailbox stays unknown); anything else is tried again.
 */
function smtpProblem(error: unknown): Error {
  const { responseCode, command, code } = (error ?? {}) as { responseCode?: number; command?: string; code?: string };
  if (typeof responseCode === 'number') {
    const text = `SMTP ${responseCode}${command ? ` after ${command}` : ''}${code ? ` (${code})` : ''}`;
    return responseCode >= 500 && responseCode < 600 ? new PermanentDeliveryError(text) : new Error(text);
  }
  return new Error(code ? `SMTP connection failed (${code})` : 'SMTP sending failed');
}

/** Where the mail of a delivery is written without SMTP: `<emlDir>/<delivery id>.eml`. */
function mailFile(emlDir: string, deliveryId: string): string {
  return join(emlDir, `${deliveryId}.eml`);
}

/**
 * Deletes the `.eml` files of these deliveries, when there are any: `erase` and `purge` remove a
 * person's mail with their requests, so that no copy of it stays on disk.
 * @returns how many files were deleted
 */
export async function removeMailFiles(emlDir: string, deliveryIds: readonly string[]): Promise<number> {
  const removed = await Promise.all(deliveryIds.map((id) => unlink(mailFile(emlDir, id)).then(() => 1, () => 0)));
  return removed.reduce<number>((sum, n) => sum + n, 0);
}
