import { RETENTION } from '#shared/policy';
import { VERIFIED_REQUEST_TYPES, type PrivacyRequestType } from '#shared/submission';
import { html, letter, longDate, para, privacySignature, writeTo, type MailContent, type MessageFacts, type Paragraph } from './layout.ts';

/** One more privacy request a confirmation covers: sent to the same mailbox while the first one's confirmation waited. */
export interface AlsoConfirmed {
  receivedAt: Date;
  dueAt: Date | null;
  types: PrivacyRequestType[];
  /** its own verification link, or null (an opt-out only, another address, or no link could be made) */
  verificationLink: string | null;
  /**
   * sent from another spelling of the mailbox (a `+tag`, Gmail's dots) than the address this mail goes to:
   * it carries no link for it, since a link confirms the address it reaches (11 CCR §7060), and says how
   * to confirm it from its own address. Only a confirmation queued by a version before requests joined
   * only their own address's (server/db/functions/accept_submission.sql) can list one, so that such a mail
   * still waiting at an upgrade is rendered right.
   */
  otherAddress?: boolean;
}

/**
 * The confirmation of receipt of 11 CCR §7021(a), to the email of a privacy request: the date it was
 * received, its request types (only the form's own labels), the date the response is due (45 calendar
 * days, §7021(b)), how it will be processed, and how to reach the team; for a request that needs the
 * requester's identity confirmed (§7060: Access/Know, Delete, Correct, Data Portability), the
 * verification link (`verificationLink`; null: the team will write instead). States no text the visitor
 * typed (no name, company or details). Requests to one mailbox while its confirmation waits share it
 * (`also`): each is listed with its date, types, due date and own link (none for a request from another
 * spelling of the address: a link confirms the address it reaches), so no request goes unconfirmed
 * and the mailbox gets one message.
 */
export function privacyConfirmation(facts: MessageFacts & { types: PrivacyRequestType[]; verificationLink: string | null; also?: AlsoConfirmed[] }): MailContent {
  const also = facts.also ?? [];
  const subject = also.length === 0 ? 'We received your privacy request' : `We received your ${also.length + 1} privacy requests`;
  const received = longDate(facts.receivedAt);
  const due = facts.dueAt ? longDate(facts.dueAt) : '';
  const types = facts.types.length > 0 ? facts.types.join(', ') : 'none selected';
  const verified = facts.types.some((type) => VERIFIED_REQUEST_TYPES.includes(type));
  const link = verified ? facts.verificationLink : null;
  const steps = [
    ...(verified && link
      ? [
          `Before we act on a request to know, delete, correct or port your personal information, we confirm that it is yours: open the link below and press “Confirm it's me”. Nothing else is asked of you. The link confirms your request once, and stops working when we answer it or when it is due. If you did not send this request, ignore this message: we do not carry it out unconfirmed.`,
        ]
      : []),
    ...(verified && !link
      ? [
          `Before we act on a request to know, delete, correct or port your personal information, we confirm that it is yours: if we need anything from you, we write from ${facts.privacyEmail}, and ask for no more than we need to be sure.`,
        ]
      : []),
    ...(facts.types.includes('Opt-Out')
      ? ['An opt-out of sale/sharing needs no verification: we act on it as soon as we can. You can also stop analytics in your browser at once with “Do Not Sell or Share My Personal Information” at the foot of any page of our site.']
      : []),
    `We will answer by ${due}, within ${RETENTION.privacyResponseDays} days of receipt. If we need more time, we will tell you why before that date; we can extend once, by up to ${RETENTION.privacyResponseDays} more days.`,
  ];
  return letter(subject, [
    para`We received your privacy request on ${received}.`,
    {
      text: `Request types: ${types}\nResponse due by: ${due}`,
      html: html`<p>Request types: <strong>${types}</strong><br>Response due by: <strong>${due}</strong></p>`,
    },
    {
      text: ['How we will process it:', ...steps.map((step) => `- ${step}`)].join('\n'),
      html: html`<p>How we will process it:</p>
<ul>${steps.map((step) => html`<li>${step}</li>`)}</ul>`,
    },
    ...(link
      ? [
          {
            text: `Confirm it is you:\n${link}`,
            html: html`<p><a href="${link}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;border-radius:6px;text-decoration:none">Confirm it is you</a></p>
<p style="font-size:14px;color:#4b5563">Or copy this address into your browser: ${link}</p>`,
          },
        ]
      : []),
    ...(also.length > 0
      ? [
          para`This message also confirms ${also.length === 1 ? 'another privacy request' : `${also.length} more privacy requests`} sent with this email address${also.some((request) => request.otherAddress) ? ' or another spelling of it' : ''}. If you did not send one of them, ignore its link: we do not carry out a request unconfirmed.`,
          ...also.map(alsoParagraph),
        ]
      : []),
    writeTo('Questions: reply to this message, or write to', facts.privacyEmail),
    privacySignature(facts.siteUrl),
  ]);
}

/** What a covered request from another spelling of the mailbox says instead of a link. */
const OTHER_ADDRESS =
  'It was sent from another spelling of this email address, so this message carries no link for it: to confirm it is yours, reply to this message from the address you sent it from.';

/** One more request the confirmation covers, numbered from 2: its date, types, due date and own link. */
function alsoParagraph(request: AlsoConfirmed, i: number): Paragraph {
  const types = request.types.length > 0 ? request.types.join(', ') : 'none selected';
  const due = request.dueAt ? longDate(request.dueAt) : '';
  const link = request.otherAddress ? null : request.verificationLink;
  const needsIt = request.types.some((type) => VERIFIED_REQUEST_TYPES.includes(type));
  const elsewhere = request.otherAddress && needsIt ? OTHER_ADDRESS : null;
  return {
    text: [
      `Request ${i + 2}, received on ${longDate(request.receivedAt)}`,
      `Request types: ${types}`,
      `Response due by: ${due}`,
      ...(link ? ['Confirm it is you:', link] : []),
      ...(elsewhere ? [elsewhere] : []),
    ].join('\n'),
    html: html`<p>Request ${i + 2}, received on ${longDate(request.receivedAt)}<br>Request types: <strong>${types}</strong><br>Response due by: <strong>${due}</strong>${link ? html`<br><a href="${link}">Confirm it is you</a>: ${link}` : ''}${elsewhere ? html`<br>${elsewhere}` : ''}</p>`,
  };
}
