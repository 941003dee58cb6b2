import { PRICING_EXAMPLES, PRICE_PER_1000_QUERIES_USD, PRODUCT_NAME } from '@/config/site';
import { complianceNote, faq, features, hero, inviteSection } from './home';
import { pageMeta } from './pageMeta';

/**
 * `/llms.txt`, following the llms.txt proposal (https://llmstxt.org): an H1 with the
 * product's name, a blockquote summary, then sections of Markdown, with links to each page. Written
 * from the same typed content as the pages, so it cannot drift from them.
 * @param siteUrl - the site's origin, without a trailing slash (SITE_URL)
 */
export function llmsText(siteUrl: string): string {
  const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: amount < 1 ? 2 : 0 })}`;
  const link = (route: keyof typeof pageMeta, text: string) => `- [${text}](${siteUrl}${route}): ${pageMeta[route].description}`;
  return [
    `# ${PRODUCT_NAME}`,
    '',
    `> ${hero.lede} ${hero.betaNote}`,
    '',
    '## What it offers',
    '',
    ...features.map((feature) => `- **${feature.title}.** ${feature.description}`),
    '',
    '## Pricing',
    '',
    `${usd(PRICE_PER_1000_QUERIES_USD)} per 1,000 queries during the beta, billed monthly on usage, with no seat fee or minimum.`,
    '',
    ...PRICING_EXAMPLES.map(({ queriesPerMonth, monthlyUsd }) => `- ${(queriesPerMonth / 1_000_000).toLocaleString('en-US')}M queries a month: about ${usd(monthlyUsd)}`),
    '',
    '## How to get access',
    '',
    `${inviteSection.intro} Request an invite at ${siteUrl}/#invite.`,
    '',
    '## Questions',
    '',
    ...faq.flatMap((item) => [`### ${item.question}`, '', item.answer, '']),
    `### ${complianceNote.title}`,
    '',
    complianceNote.body,
    '',
    '## Pages',
    '',
    link('/', 'Home'),
    link('/privacy', 'Privacy Policy'),
    link('/privacy-request', 'Privacy rights request'),
    link('/terms', 'Terms of Service'),
    '',
  ].join('\n');
}
