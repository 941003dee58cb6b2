import { html } from 'hono/html';

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

export { html };
