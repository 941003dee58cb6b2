import { act, render } from '@testing-library/react';
import { StrictMode, useEffect, useState } from 'react';
import { Link, MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useScrollToHash } from '@/app/useScrollToHash';

// A layout whose page arrives late, as a page chunk still loading after a client-side navigation
// leaves <main> empty until it is in.
function LateLayout({ pageAfterMs, sectionId }: { pageAfterMs: number; sectionId: string }) {
  useScrollToHash();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), pageAfterMs);
    return () => clearTimeout(timer);
  }, [pageAfterMs]);
  return (
    <main id="main">
      {loaded && (
        <section id={sectionId}>
          <h2>Section</h2>
        </section>
      )}
    </main>
  );
}

function renderAt(path: string, pageAfterMs: number, sectionId = 'pricing') {
  return render(
    <StrictMode>
      <MemoryRouter initialEntries={[path]}>
        <LateLayout pageAfterMs={pageAfterMs} sectionId={sectionId} />
      </MemoryRouter>
    </StrictMode>,
  );
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('scroll to the hash section (spec §2) when the page arrives late', () => {
  const scrollIntoView = vi.mocked(Element.prototype.scrollIntoView);
  beforeEach(() => {
    vi.useFakeTimers();
    scrollIntoView.mockClear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('scrolls to the section as soon as the page is in, not before 100 ms', async () => {
    renderAt('/#pricing', 400);
    await advance(100);
    expect(scrollIntoView).not.toHaveBeenCalled();
    await advance(300);
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('pricing'));
  });

  it('still waits the 100 ms when the page is in sooner', async () => {
    renderAt('/#pricing', 10);
    await advance(99);
    expect(scrollIntoView).not.toHaveBeenCalled();
    await advance(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('pricing'));
  });

  it('on the page load, leaves a page the browser has already scrolled (or the visitor has) where it is', async () => {
    const scrollY = vi.spyOn(window, 'scrollY', 'get').mockReturnValue(800);
    try {
      renderAt('/#pricing', 10);
      await advance(1000);
      expect(scrollIntoView).not.toHaveBeenCalled();
    } finally {
      scrollY.mockRestore();
    }
  });

  it('scrolls nowhere when the page that arrives has no such section', async () => {
    renderAt('/#pricing', 400, 'faq');
    await advance(1000);
    expect(scrollIntoView).not.toHaveBeenCalled();
  });
});

// The layout of every page, with a link to follow.
function LayoutWithLink() {
  useScrollToHash();
  return (
    <main id="main">
      <Link to="/terms">Terms</Link>
      <Link to="/privacy#pricing">Pricing</Link>
      <section id="pricing" />
    </main>
  );
}

/** The page load of /privacy, with links to /terms and to a section. */
function renderLayoutAtPrivacy() {
  return render(
    <StrictMode>
      <MemoryRouter initialEntries={['/privacy']}>
        <LayoutWithLink />
      </MemoryRouter>
    </StrictMode>,
  );
}

describe('the page load keeps its place; a navigation without a hash starts at the top (spec §2)', () => {
  const scrollTo = vi.mocked(window.scrollTo);
  beforeEach(() => scrollTo.mockClear());

  it('does not scroll the page it loaded at: the browser placed it, and the visitor may have scrolled on', () => {
    renderLayoutAtPrivacy();
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('scrolls to the top after following a link to another page', async () => {
    const { getByRole } = renderLayoutAtPrivacy();
    await act(async () => {
      getByRole('link', { name: 'Terms' }).click();
    });
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it('scrolls to the section of a link followed from anywhere on the page', async () => {
    vi.useFakeTimers();
    const scrollY = vi.spyOn(window, 'scrollY', 'get').mockReturnValue(800);
    const scrollIntoView = vi.mocked(Element.prototype.scrollIntoView);
    scrollIntoView.mockClear();
    try {
      const { getByRole } = renderLayoutAtPrivacy();
      await act(async () => {
        getByRole('link', { name: 'Pricing' }).click();
      });
      await advance(100);
      expect(scrollIntoView.mock.contexts).toEqual([document.getElementById('pricing')]);
    } finally {
      scrollY.mockRestore();
      vi.useRealTimers();
    }
  });
});
