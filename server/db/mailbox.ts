import { createHash } from 'node:crypto';

/** SHA-256 of a string, as 64 hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Domains of one mailbox service whose local parts ignore dots: Gmail's two names. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The address a request came from, as `submissions.email` stores it and as a person's data is matched by
 * (`subject`, `erase`, the export `respond --attach-subject` mails, the confirmation a request joins):
 * trimmed, the domain in lower case, the local part as typed. Disclosing or deleting a person's data is
 * matched on exactly the address whose mailbox proved it was theirs (11 CCR §7060–§7062: verify the
 * requester, and match their data to them), never on another spelling that {@link mailboxOf} folds into
 * it: `victim+eve@corp.example` reaches `victim@corp.example` only where the domain treats `+` as a
 * sub-address (RFC 5233), Gmail's dots are Gmail's alone, and a domain is case-insensitive (RFC 1035
 * §2.3.3) while a local part may not be (RFC 5321 §2.4: only the receiving host decides). So `Ada@x.example`
 * and `ada@x.example` are two addresses here: the same person's other spelling is listed to the team as one
 * that may be theirs, to be answered on its own verification.
 * @param email - an address; surrounding white space ignored
 * @returns the address with its domain (after the last `@`) in lower case; an input without `@` comes back trimmed
 */
export function addressOf(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  return at < 0 ? trimmed : `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}`;
}

/**
 * The mailbox an address reaches: the one rule by which the per-mailbox mail limits ({@link MAIL_LIMITS})
 * count and requests that may be one person's are linked (the queue's `duplicateOf`, a request's other
 * spellings); never what a person's data is disclosed or deleted by ({@link addressOf}). Lower case; the
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
