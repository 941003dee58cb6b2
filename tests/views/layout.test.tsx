import { act } from '@testing-library/react';
import { screen, within } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../renderApp';

describe('shared layout (spec §2)', () => {
  it('header: product name to /, Pricing, FAQ and Request invite', () => {
    renderApp('/terms');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Sonde' })).toHaveAttribute('href', '/');
    expect(within(header).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/#pricing');
    expect(within(header).getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/#faq');
    expect(within(header).getByRole('link', { name: 'Request invite' })).toHaveAttribute('href', '/#invite');
  });

  it('footer: tagline and the Product, Company and Get started columns', () => {
    renderApp('/');
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(/search infra for agentic AI/i);
    const product = within(footer).getByRole('navigation', { name: 'Product' });
    expect(within(product).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/#pricing');
    expect(within(product).getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/#faq');
    const company = within(footer).getByRole('navigation', { name: 'Company' });
    expect(within(company).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(within(company).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(within(company).getByRole('button', { name: 'Do Not Sell or Share My Personal Information' })).toBeInTheDocument();
    const getStarted = within(footer).getByRole('navigation', { name: 'Get started' });
    expect(within(getStarted).getByRole('link', { name: 'Request invite' })).toHaveAttribute('href', '/#invite');
  });

  it('the copyright line shows the current year', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-04T12:00:00Z'));
    renderApp('/');
    expect(within(screen.getByRole('contentinfo')).getByText(/© 2031 Sonde/)).toBeInTheDocument();
  });

  it('has a skip link to the main landmark', () => {
    renderApp('/');
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
  });

  it('scrolls smoothly to the hash section 100 ms after arriving', () => {
    vi.useFakeTimers();
    const scrollIntoView = vi.mocked(Element.prototype.scrollIntoView);
    scrollIntoView.mockClear();
    renderApp('/#faq');
    act(() => {
      vi.advanceTimersByTime(99);
    });
    expect(scrollIntoView).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('faq'));
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
  });

  it('scrolls instantly when the visitor prefers reduced motion', () => {
    vi.useFakeTimers();
    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => ({ matches: query.includes('reduce'), media: query }) as MediaQueryList,
    );
    const scrollIntoView = vi.mocked(Element.prototype.scrollIntoView);
    scrollIntoView.mockClear();
    renderApp('/#pricing');
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'auto', block: 'start' });
    matchMedia.mockRestore();
  });

  it('clicking Pricing on another page goes to /#pricing and scrolls there after 100 ms', async () => {
    vi.useFakeTimers();
    const scrollIntoView = vi.mocked(Element.prototype.scrollIntoView);
    scrollIntoView.mockClear();
    const { user, location } = renderApp('/privacy', { fakeTimers: true });
    await user.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Pricing' }));
    expect(location()).toBe('/#pricing');
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(scrollIntoView.mock.contexts.at(-1)).toBe(document.getElementById('pricing'));
  });
});
