import { screen, within } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { RETENTION } from '#shared/policy';
import { features, faq } from '@/content/home';
import { renderApp } from '../renderApp';

describe('routes of spec §2', () => {
  it('home shows the hero figures, eight feature cards, pricing, FAQ and the invite section', async () => {
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Web search built for agents');
    const figures = screen.getByRole('list', { name: 'Key figures' });
    expect(figures).toHaveTextContent('$0.20 per 1,000 queries');
    expect(figures).toHaveTextContent('<100 ms p50 latency');
    expect(figures).toHaveTextContent('Global, multilingual coverage');
    expect(screen.getAllByText(/Invite-only beta/).length).toBeGreaterThan(0);

    const cardTitles = screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);
    expect(cardTitles).toEqual([
      'Fast at scale',
      'Radically affordable',
      'Global coverage',
      'Legally clean',
      'Tunable results',
      'Hybrid retrieval',
      'Enterprise-ready',
      'Elastic capacity',
    ]);
    expect(features).toHaveLength(8);

    const pricing = document.getElementById('pricing')!;
    expect(pricing).toHaveTextContent('$0.20');
    expect(within(pricing).getByRole('row', { name: /5M queries/ })).toHaveTextContent('≈ $1,000 / month');
    expect(within(pricing).getByRole('row', { name: /100M queries/ })).toHaveTextContent('≈ $20,000 / month');

    const faqSection = document.getElementById('faq')!;
    // every question of the content, in order, each followed by its answer, then the compliance note
    const questions = within(faqSection).getAllByRole('heading', { level: 3 });
    expect(questions.map((heading) => heading.textContent)).toEqual([
      'How fast is it?',
      'Which regions and languages do you cover?',
      'How are pricing and billing handled?',
      'How does beta access work?',
      'Where does the data come from?',
      'How do API keys and logs work?',
      'Can I tune ranking and freshness?',
      'Compliance & trust (beta)',
    ]);
    faq.forEach((item, index) => expect(questions[index]!.nextElementSibling).toHaveTextContent(item.answer));
    expect(faqSection).toHaveTextContent(/do not scrape search engine result pages/);

    expect(within(document.getElementById('invite')!).getByRole('heading', { level: 2 })).toHaveTextContent('Request an invite');
    expect(document.title).toBe('Sonde — web search API for agentic AI');
  });

  it('hero buttons point at the invite form and pricing', () => {
    renderApp('/');
    expect(screen.getByRole('link', { name: 'Request an invite' })).toHaveAttribute('href', '/#invite');
    expect(screen.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/#pricing');
  });

  it('/privacy has sections 1 to 10 with the §9 figures and links to the request form', () => {
    renderApp('/privacy');
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent ?? '');
    const numbered = titles.filter((t) => /^\d+\. /.test(t));
    expect(numbered.map((t) => Number(t.split('.')[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent(`up to ${RETENTION.applicationMonths} months`);
    expect(main).toHaveTextContent(`up to ${RETENTION.browserFingerprintMonths} months`);
    expect(main).toHaveTextContent(`within ${RETENTION.privacyResponseDays} days`);
    expect(main).toHaveTextContent(`records of privacy requests (what you sent, and when and how we answered): ${RETENTION.privacyRequestRecordMonths} months`);
    expect(main).toHaveTextContent('When you send a privacy request we collect your name, your email');
    expect(main).toHaveTextContent(`not for people under ${RETENTION.minimumAge}`);
    expect(main).toHaveTextContent(/Global Privacy Control/);
    expect(main).toHaveTextContent(/browser identifier/);
    // What the browser itself keeps, and for how long
    expect(main).toHaveTextContent('kept in that tab’s session storage');
    expect(main).toHaveTextContent('sent again until it arrives, for at most 30 days');
    expect(within(main).getByRole('link', { name: 'Submit a privacy request' })).toHaveAttribute('href', '/privacy-request');
    expect(document.title).toBe('Privacy Policy — Sonde');
  });

  it('/terms has 12 numbered sections', () => {
    renderApp('/terms');
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument();
    const numbered = screen
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent ?? '')
      .filter((t) => /^\d+\. /.test(t));
    expect(numbered).toHaveLength(12);
  });

  it('/privacy-request has its own heading', () => {
    renderApp('/privacy-request');
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy rights request' })).toBeInTheDocument();
  });

  it("/thank-you shows 'Request received', three next steps, the rolling note and Back to home", () => {
    renderApp('/thank-you');
    expect(screen.getByRole('heading', { level: 1, name: 'Request received' })).toBeInTheDocument();
    const steps = within(screen.getByRole('main')).getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    expect(steps[0]).toHaveTextContent(/review/i);
    expect(steps[1]).toHaveTextContent(/reach out|contact you/i);
    expect(steps[2]).toHaveTextContent(/cohort and given API credentials/);
    expect(screen.getByText('Applications are processed on a rolling basis.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  it('an unknown path shows a not-found page with a link home', () => {
    renderApp('/no-such-page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it.each(['/', '/privacy', '/privacy-request', '/terms', '/thank-you', '/nope'])('%s has exactly one h1', (path) => {
    renderApp(path);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });
});
