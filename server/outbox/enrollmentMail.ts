import { buildMail } from './mail.ts';
import { teamEnrollment } from './messages/teamEnrollment.ts';

/**
 * The mail of an enrollment link (`team add`, `team link`), rendered whole when its outbox row is
 * written, in the transaction that makes the link: the command line prints the link, and the outbox
 * (server/outbox/sender.ts) sends this message as it is on every attempt, so a retry carries the same
 * link. The row keeps it (`deliveries.rendered`, which holds the raw token) only until it is delivered
 * or given up, as a privacy confirmation's verification link.
 * @param from - the site's sender (`SONDE_MAIL_FROM`)
 * @param mail - the row's id (the Message-ID's local part), the member's address, the link and its expiry
 * @returns the message (RFC 5322, CRLF)
 */
export function enrollmentMail(from: string, mail: { deliveryId: string; to: string; link: string; expiresAt: Date; siteUrl: string }): Promise<string> {
  return buildMail(from, mail.deliveryId, { to: mail.to, ...teamEnrollment(mail) });
}
