import type { Digest, ReminderRequest } from '../../db/digest.ts';
import {
  DIGEST_COHORT_STARTS_WITHIN_DAYS,
  DIGEST_GIVEN_UP_WITHIN_MS,
  DIGEST_INVITE_WAITING_AFTER_MS,
  DIGEST_LIST_MAX,
  DIGEST_UNVERIFIED_AFTER_MS,
  DUE_SOON_DAYS,
  DUE_URGENT_DAYS,
} from '../../limits.ts';
import { html, letter, type MailContent, type Paragraph } from './layout.ts';

const DAY_MS = 86_400_000;

/** The console's page of a request, `<siteUrl>/team/requests/<id>` (src/app/team/TeamRoutes.tsx): the member signs in there to see who asked. */
function requestPageOf(siteUrl: string, id: string): string {
  return `${siteUrl}/team/requests/${id}`;
}

/** `1 day`, `3 days`. */
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** How a request's due date stands, in words: `overdue by 2 days`, `overdue today`, `4 days left`. */
function dueWords(request: ReminderRequest): string {
  if (request.daysLeft < 0) return `overdue by ${days(-request.daysLeft)}`;
  if (request.daysLeft === 0) return 'overdue today';
  return `${days(request.daysLeft)} left`;
}

/** The line that ends a list cut at {@link DIGEST_LIST_MAX}: how many it left out, and where they all are. */
const moreLine = (more: number, siteUrl: string) => `and ${more.toLocaleString('en-US')} more: the console's queue lists them all, ${siteUrl}/team`;

/**
 * One privacy request per line and per list item, the first {@link DIGEST_LIST_MAX}: its id, its request
 * types, its due date and how that stands, and the console's link; then how many more. Nothing a requester
 * typed, nor their name or address.
 */
function requestList(siteUrl: string, requests: readonly ReminderRequest[]): Paragraph {
  const shown = requests.slice(0, DIGEST_LIST_MAX);
  const more = requests.length - shown.length;
  const line = (r: ReminderRequest) => `- ${r.id} (${r.types.join(', ')}), due ${r.dueAt.toISOString().slice(0, 10)}, ${dueWords(r)}: ${requestPageOf(siteUrl, r.id)}`;
  return {
    text: [...shown.map(line), ...(more > 0 ? [`- ${moreLine(more, siteUrl)}`] : [])].join('\n'),
    html: html`<ul>${shown.map(
      (r) => html`<li><a href="${requestPageOf(siteUrl, r.id)}"><code>${r.id}</code></a> (${r.types.join(', ')}), due ${r.dueAt.toISOString().slice(0, 10)}, ${dueWords(r)}</li>`,
    )}${more > 0 ? html`<li>${moreLine(more, siteUrl)}</li>` : ''}</ul>`,
  };
}

/** A heading line in both parts. */
const heading = (text: string): Paragraph => ({ text, html: html`<h2 style="font-size:16px;margin:24px 0 0">${text}</h2>` });

/** A list of plain lines in both parts, the first {@link DIGEST_LIST_MAX}, then how many more. */
const lines = (items: string[], siteUrl: string): Paragraph => {
  const more = items.length - DIGEST_LIST_MAX;
  const shown = more > 0 ? [...items.slice(0, DIGEST_LIST_MAX), moreLine(more, siteUrl)] : items;
  return { text: shown.map((item) => `- ${item}`).join('\n'), html: html`<ul>${shown.map((item) => html`<li>${item}</li>`)}</ul>` };
};

/**
 * The team's daily digest (server/outbox/digest.ts), to each active member: what needs the team today,
 * section by section, each left out when empty; the privacy requests by the console's due bands, with their
 * ids, request types, due dates and the console's links. It states no requester's name, address, company or
 * text (the console shows them after sign-in), and no team member's either.
 * @param siteUrl - the site's public origin (`SONDE_PUBLIC_ORIGIN`), for the console's links
 */
export function teamDigest(digest: Digest, siteUrl: string): MailContent {
  const band = (name: ReminderRequest['band']) => digest.due.filter((r) => r.band === name);
  const counts = [
    [band('overdue').length, 'overdue'],
    [band('under_5_days').length, `due in under ${DUE_URGENT_DAYS} days`],
    [band('under_10_days').length, `due in under ${DUE_SOON_DAYS} days`],
    [digest.unverified.length, 'unverified'],
    [digest.invitesWaiting, 'invites waiting'],
    [digest.givenUp.length, digest.givenUp.length === 1 ? 'delivery given up' : 'deliveries given up'],
    [digest.cohorts.length, digest.cohorts.length === 1 ? 'cohort starting' : 'cohorts starting'],
  ] as const;
  const summary = counts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`).join(', ');
  const subject = `Sonde team digest, ${digest.day}: ${summary || 'nothing needs the team'}`;
  const paragraphs: Paragraph[] = [];
  const add = (title: string, body: Paragraph) => paragraphs.push(heading(title), body);
  if (band('overdue').length > 0) add('Privacy requests overdue (11 CCR §7021(b)): answer them now', requestList(siteUrl, band('overdue')));
  if (band('under_5_days').length > 0) add(`Privacy requests due in under ${DUE_URGENT_DAYS} days`, requestList(siteUrl, band('under_5_days')));
  if (band('under_10_days').length > 0) add(`Privacy requests due in under ${DUE_SOON_DAYS} days`, requestList(siteUrl, band('under_10_days')));
  if (digest.unverified.length > 0) add(`Privacy requests still unverified after ${DIGEST_UNVERIFIED_AFTER_MS / DAY_MS} days`, requestList(siteUrl, digest.unverified));
  if (digest.invitesWaiting > 0)
    add(`Invite requests waiting for a decision for more than ${DIGEST_INVITE_WAITING_AFTER_MS / DAY_MS} days`, {
      text: `${digest.invitesWaiting} (the queue, filtered by "received": ${siteUrl}/team)`,
      html: html`<p>${digest.invitesWaiting} (<a href="${siteUrl}/team">the queue</a>, filtered by "received")</p>`,
    });
  if (digest.givenUp.length > 0)
    add(
      `Deliveries given up in the last ${DIGEST_GIVEN_UP_WITHIN_MS / 3_600_000} hours`,
      lines(
        digest.givenUp.map(
          (d) =>
            `${d.id}: ${d.channel}${d.what ? ` (${d.what})` : ''}${d.requestId ? ` for request ${d.requestId}` : ''}, given up ${d.failedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${d.problem ? `: ${d.problem}` : ''}`,
        ),
        siteUrl,
      ),
    );
  if (digest.cohorts.length > 0)
    add(
      `Cohorts starting within ${DIGEST_COHORT_STARTS_WITHIN_DAYS} days`,
      lines(
        digest.cohorts.map((c) => `${c.name}, starts ${c.startsOn}: ${c.accepted} accepted, ${c.free === null ? 'no capacity set' : `${c.free} of ${c.capacity} seats free`}`),
        siteUrl,
      ),
    );
  if (paragraphs.length === 0) paragraphs.push({ text: 'Nothing needs the team today.', html: html`<p>Nothing needs the team today.</p>` });
  paragraphs.push({
    text: `Sign in to the console for each request's details: ${siteUrl}/team. This digest is sent once a day; npm run requests -- digest prints it.`,
    html: html`<p>Sign in to <a href="${siteUrl}/team">the console</a> for each request's details. This digest is sent once a day; <code>npm run requests -- digest</code> prints it.</p>`,
  });
  return letter(subject, paragraphs);
}

/**
 * The alert of privacy requests newly overdue (server/outbox/digest.ts), to each active member, once per
 * request: their ids, request types, due dates and the console's links; no requester's personal data.
 */
export function teamOverdue(requests: readonly ReminderRequest[], siteUrl: string): MailContent {
  const subject =
    requests.length === 1 ? `Privacy request overdue: ${requests[0]!.id}` : `${requests.length} privacy requests overdue`;
  return letter(subject, [
    {
      text: `${requests.length === 1 ? 'This privacy request has' : 'These privacy requests have'} passed ${requests.length === 1 ? 'its' : 'their'} due date without a response (11 CCR §7021(b): 45 days, once 45 more with notice). Answer ${requests.length === 1 ? 'it' : 'them'} now:`,
      html: html`<p>${requests.length === 1 ? 'This privacy request has' : 'These privacy requests have'} passed ${requests.length === 1 ? 'its' : 'their'} due date without a response (11 CCR §7021(b): 45 days, once 45 more with notice). Answer ${requests.length === 1 ? 'it' : 'them'} now:</p>`,
    },
    requestList(siteUrl, requests),
    {
      text: `This alert is sent once per request; the daily digest lists ${requests.length === 1 ? 'it' : 'them'} until answered.`,
      html: html`<p>This alert is sent once per request; the daily digest lists ${requests.length === 1 ? 'it' : 'them'} until answered.</p>`,
    },
  ]);
}
