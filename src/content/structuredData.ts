import { PRICE_PER_1000_QUERIES_USD, PRODUCT_NAME } from '@/config/site';
import { faq, hero } from './home';

/**
 * Structured data (schema.org as JSON-LD): `Organization` and `WebSite` on every page; on the
 * home page also `FAQPage` from the FAQ and the beta price as an `Offer`. Written from the typed content.
 * @param siteUrl - the site's origin, without a trailing slash (SITE_URL)
 * @param home - true on `/`
 * @returns the JSON-LD objects, one `<script type="application/ld+json">` each
 */
export function structuredData(siteUrl: string, home: boolean): object[] {
  const organization = { '@context': 'https://schema.org', '@type': 'Organization', '@id': `${siteUrl}/#organization`, name: PRODUCT_NAME, url: `${siteUrl}/` };
  const website = { '@context': 'https://schema.org', '@type': 'WebSite', name: PRODUCT_NAME, url: `${siteUrl}/`, publisher: { '@id': `${siteUrl}/#organization` } };
  if (!home) return [organization, website];
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: `${PRODUCT_NAME} web search API`,
    description: hero.lede,
    brand: { '@id': `${siteUrl}/#organization` },
    offers: {
      '@type': 'Offer',
      url: `${siteUrl}/#pricing`,
      priceCurrency: 'USD',
      price: PRICE_PER_1000_QUERIES_USD.toFixed(2),
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: PRICE_PER_1000_QUERIES_USD.toFixed(2),
        priceCurrency: 'USD',
        referenceQuantity: { '@type': 'QuantitativeValue', value: 1000, unitText: 'queries' },
      },
      availability: 'https://schema.org/LimitedAvailability',
    },
  };
  const faqPage = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faq.map((item) => ({ '@type': 'Question', name: item.question, acceptedAnswer: { '@type': 'Answer', text: item.answer } })),
  };
  return [organization, website, product, faqPage];
}
