import { createHash } from 'node:crypto';

/** SHA-256 of a string, as 64 hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Domains of one mailbox service whose local parts ignore dots: Gmail's two names. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches: the one rule by which the per-mailbox mail limits ({@link MAIL_LIMITS})
 * count, `subject` and `erase` find a person, and requests to one person are told apart. Lower case; the
 * local part without its sub-address after the first `+` (RFC 5233); at gmail.com and googlemail.com
 * (one service, which ignores dots in the local part) without dots, at gmail.com. So
 * `Ada.Lovelace+x@googlemail.com` and `adalovelace@gmail.com` are one mailbox. Its SQL twin is
 * `mailbox_of` (server/db/functions/mailbox_of.sql), which `accept_submission` stores
 * as `submissions.mailbox`; a property test checks that both agree.
 * @param email - an address, any case, surrounding white space ignored
 * @returns the mailbox, an address in lower case; an input without `@` comes back lower-cased
 */
export function mailboxOf(email: string): string {
  const lowered = email.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  if (at < 0) return lowered;
  const local = lowered.slice(0, at).split('+')[0]!;
  const domain = lowered.slice(at + 1);
  return GMAIL_DOMAINS.has(domain) ? `${local.replaceAll('.', '')}@gmail.com` : `${local}@${domain}`;
}
