import { html, raw } from 'hono/html';

/** A message as the mail channel sends it: a subject, a plain-text part and a simple HTML part. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** The facts a message may state. Never the visitor's free text (name, company, description, notes). */
export interface MessageFacts {
  /** when the request was stored */
  receivedAt: Date;
  /** privacy requests: the response's due date (received + 45 days, 11 CCR §7021(b)) */
  dueAt: Date | null;
  /** the site's public origin, e.g. `https://sonde.dev` */
  siteUrl: string;
  /** where privacy questions go (`SONDE_PRIVACY_EMAIL`) */
  privacyEmail: string;
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** `November 25, 2026`: a date as a message states it, in UTC (the time zone of every stored date). */
export function longDate(date: Date): string {
  return LONG_DATE.format(date);
}

/**
 * The HTML part around a message's paragraphs: one column, system fonts, no image, no script, no
 * tracking pixel. Every interpolated value of the message is escaped by hono/html's `html` tag.
 */
export function htmlLayout(title: string, body: ReturnType<typeof html>): string {
  return String(html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#111827;font:16px/1.5 -apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,sans-serif">
<div style="max-width:560px;margin:0 auto">
${body}
<p style="color:#4b5563;font-size:14px">Sonde</p>
</div>
</body>
</html>`);
}

/**
 * One paragraph of a message as each part states it: `text` in the plain-text part (it may hold several
 * lines), `html` in the HTML part (escaped markup: built with `html`). Null: the part does not state it.
 */
export interface Paragraph {
  text: string | null;
  html: ReturnType<typeof html> | string | null;
}

/**
 * A paragraph that both parts state in the same words, as a template tag: `` para`Received on ${date}.` ``.
 * The text part is the sentence as written; the HTML part is `<p>…</p>`, every interpolated value escaped.
 */
export function para(strings: TemplateStringsArray, ...values: unknown[]): Paragraph {
  return {
    text: strings.reduce((text, part, i) => `${text}${String(values[i - 1])}${part}`),
    html: html`<p>${html(strings, ...values)}</p>`,
  };
}

/** A paragraph that ends in an address to write to: the address as is in the text part, a `mailto:` link in the HTML part. */
export function writeTo(lead: string, email: string): Paragraph {
  return { text: `${lead} ${email}.`, html: html`<p>${lead} <a href="mailto:${email}">${email}</a>.</p>` };
}

/** The last paragraph of a message to a visitor: `Sonde — <siteUrl>` in the text part, the site's link in the HTML part. */
export function siteSignature(siteUrl: string): Paragraph {
  return { text: `Sonde — ${siteUrl}`, html: html`<p><a href="${siteUrl}">${siteUrl}</a></p>` };
}

/** The last paragraph of a message about a privacy request: `Sonde — <siteUrl>/privacy`, and in the HTML part a link to the privacy policy. */
export function privacySignature(siteUrl: string): Paragraph {
  return { text: `Sonde — ${siteUrl}/privacy`, html: html`<p><a href="${siteUrl}/privacy">Our privacy policy</a></p>` };
}

/**
 * A message to a visitor or a team member: "Hello," then its paragraphs, in both parts. The text part
 * separates paragraphs with a blank line; the HTML part (in `htmlLayout`) puts each on its own line.
 * A paragraph's null part is left out of that part.
 * @returns the subject, the plain-text part and the HTML part
 */
export function letter(subject: string, paragraphs: Paragraph[]): MailContent {
  const texts = paragraphs.flatMap((paragraph) => (paragraph.text === null ? [] : [paragraph.text]));
  const htmls = paragraphs.flatMap((paragraph) => (paragraph.html === null ? [] : [String(paragraph.html)]));
  return {
    subject,
    text: ['Hello,', ...texts].join('\n\n'),
    html: htmlLayout(subject, raw(['<p>Hello,</p>', ...htmls].join('\n'))),
  };
}

export { html };
