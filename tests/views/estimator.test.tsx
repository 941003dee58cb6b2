import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode, startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Estimator } from '@/components/Estimator';
import { STORAGE_KEYS } from '@/config/site';
import { ENABLED_BEFORE_HYDRATION } from '@/config/beforeHydration';
import { handOverToInviteForm, receiveInviteHandOvers } from '@/estimator/inviteHandOver';
import { inviteFormElement } from '../inviteFixtures';
import { appAt, renderApp } from '../renderApp';

// The cost estimator in the pricing section (spec §2 section 3, §9), as a visitor uses it: every test
// renders in StrictMode (tests/renderApp.tsx), as src/hydrate.tsx does.

const estimatorForm = () => screen.getByRole('form', { name: 'Estimate your cost' });
const queriesField = () => within(estimatorForm()).getByRole('textbox', { name: 'Queries per month' }) as HTMLInputElement;
const slider = () => within(estimatorForm()).getByRole('slider', { name: 'Queries per month, 100k to 10B' }) as HTMLInputElement;
const peakField = () => within(estimatorForm()).getByRole('textbox', { name: 'Peak QPS' }) as HTMLInputElement;
const shareField = () => within(estimatorForm()).getByRole('textbox', { name: 'Share of the day at peak (%)' }) as HTMLInputElement;
const result = () => within(estimatorForm()).getByRole('status');
const handOverLink = () => within(estimatorForm()).getByRole('link', { name: 'Request an invite with this estimate' });
const inviteField = (name: string) => within(inviteFormElement()).getByRole('textbox', { name }) as HTMLInputElement;

/** What the result says, one line after another. */
const resultLines = () => [...result().children].map((line) => line.textContent);

const draftKey = `${STORAGE_KEYS.draftPrefix}invite`;
const keptDraft = () => JSON.parse(sessionStorage.getItem(draftKey) ?? 'null') as Record<string, unknown> | null;

/** Replaces what the queries field holds, as a visitor selecting it all and typing would. */
async function typeQueries(user: ReturnType<typeof renderApp>['user'], text: string) {
  await user.clear(queriesField());
  if (text) await user.type(queriesField(), text);
}

/** Replaces what the queries field holds in one change, as pasting over it does. */
async function pasteQueries(user: ReturnType<typeof renderApp>['user'], text: string) {
  await user.clear(queriesField());
  await user.click(queriesField());
  await user.paste(text);
}

describe('cost estimator (spec §9)', () => {
  it('opens on the 5M example of spec §9, in an output announced politely', () => {
    renderApp('/');
    expect(queriesField()).toHaveValue('5M');
    expect(queriesField()).not.toHaveAttribute('readonly');
    expect(slider()).toBeEnabled();
    expect(slider()).toHaveAttribute('aria-valuetext', '5 million queries');
    expect(result().tagName).toBe('OUTPUT');
    expect(result()).toHaveAttribute('aria-live', 'polite');
    expect(resultLines()).toEqual(['For 5M queries a month:', '$1,000 a month', '$12,000 a year', 'about 1.9 QPS on average']);
    expect(within(estimatorForm()).getByText('At the beta price of $0.20 per 1,000 queries; a month is 30 days.')).toBeInTheDocument();
  });

  it('reads 12M as $2,400 a month, $28,800 a year and about 4.6 QPS on average, and puts it in the address', async () => {
    const { user, location } = renderApp('/');
    await typeQueries(user, '12M');
    expect(resultLines()).toEqual(['For 12M queries a month:', '$2,400 a month', '$28,800 a year', 'about 4.6 QPS on average']);
    expect(slider()).toHaveAttribute('aria-valuetext', '12 million queries');
    expect(location()).toBe('/?queries=12M#pricing');
  });

  it('rewrites the address in place as the visitor types: no scroll, to the section or to the top', async () => {
    const { user, location } = renderApp('/');
    await new Promise((resolve) => setTimeout(resolve, 150)); // past the 100 ms of spec §2's scroll
    vi.mocked(window.scrollTo).mockClear();
    vi.mocked(Element.prototype.scrollIntoView).mockClear();
    await typeQueries(user, '12M');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(location()).toBe('/?queries=12M#pricing');
    expect(window.scrollTo).not.toHaveBeenCalled();
    expect(Element.prototype.scrollIntoView).not.toHaveBeenCalled();
  });

  it('reads the forms people write: 1.5B, 250k, 12,000,000 and 100M+', async () => {
    const { user } = renderApp('/');
    const read: Array<string | null> = [];
    for (const text of ['1.5B', '250k', '12,000,000', '100M+']) {
      await typeQueries(user, text);
      read.push(resultLines()[1] ?? null);
    }
    expect(read).toEqual(['$300,000 a month', '$50 a month', '$2,400 a month', '$20,000 a month']);
  });

  it('says next to the field when it cannot read an entry, and keeps the last good result', async () => {
    const { user, location } = renderApp('/');
    await typeQueries(user, '12M');
    await pasteQueries(user, '12 lots');
    expect(queriesField()).toHaveValue('12 lots');
    expect(queriesField()).toBeInvalid();
    expect(queriesField()).toHaveAccessibleDescription(/Write a number of queries, like 12M/);
    expect(within(estimatorForm()).getByText('Write a number of queries, like 12M')).toBeVisible();
    expect(resultLines()).toEqual(['For 12M queries a month:', '$2,400 a month', '$28,800 a year', 'about 4.6 QPS on average']);
    expect(location()).toBe('/?queries=12M#pricing');
    // an empty field cannot be read either; writing a volume again clears the message
    await typeQueries(user, '');
    expect(within(estimatorForm()).getByText('Write a number of queries, like 12M')).toBeVisible();
    await typeQueries(user, '100M');
    expect(queriesField()).toBeValid();
    expect(within(estimatorForm()).queryByText('Write a number of queries, like 12M')).not.toBeInTheDocument();
    expect(resultLines()[1]).toBe('$20,000 a month');
  });

  it('tells a volume above the largest it estimates, and keeps the last good result', async () => {
    const { user } = renderApp('/');
    await pasteQueries(user, '2000B');
    expect(queriesField()).toHaveAccessibleDescription(/Write at most 1,000B queries a month/);
    expect(resultLines()[1]).toBe('$1,000 a month');
  });

  it('moves by keyboard along the slider: one stop per arrow key, to 100k with Home and 10B with End', async () => {
    const { user, location } = renderApp('/');
    slider().focus();
    // what the browser does on ArrowRight over a range input (jsdom has no native stepping):
    // the value moves one step and an input event fires; the keyboard itself runs in tests/e2e/estimator.spec.ts
    fireEvent.change(slider(), { target: { value: String(Number(slider().value) + 1) } });
    expect(queriesField()).toHaveValue('6M');
    expect(slider()).toHaveAttribute('aria-valuetext', '6 million queries');
    expect(resultLines()[1]).toBe('$1,200 a month');
    fireEvent.change(slider(), { target: { value: slider().max } });
    expect(queriesField()).toHaveValue('10B');
    expect(resultLines()).toEqual(['For 10B queries a month:', '$2,000,000 a month', '$24,000,000 a year', 'about 3,858 QPS on average']);
    expect(location()).toBe('/?queries=10B#pricing');
    fireEvent.change(slider(), { target: { value: slider().min } });
    expect(queriesField()).toHaveValue('100k');
    expect(slider()).toHaveAttribute('aria-valuetext', '100 thousand queries');
    // a volume typed beyond the slider's ends holds it at its end
    await typeQueries(user, '50B');
    expect(slider().value).toBe(slider().max);
    expect(slider()).toHaveAttribute('aria-valuetext', '50 billion queries');
  });

  it('makes queries per month from a peak QPS and the share of the day at the peak', async () => {
    const { user, location } = renderApp('/');
    await user.type(peakField(), '300');
    // one of the two is not enough: nothing changes yet
    expect(queriesField()).toHaveValue('5M');
    await user.type(shareField(), '25%');
    expect(queriesField()).toHaveValue('194.4M');
    expect(resultLines()).toEqual(['For 194.4M queries a month:', '$38,880 a month', '$466,560 a year', 'about 75 QPS on average']);
    expect(location()).toBe('/?queries=194.4M#pricing');
    await user.clear(peakField());
    await user.type(peakField(), 'fast');
    expect(peakField()).toHaveAccessibleDescription('Write a peak in queries per second, like 300');
    expect(resultLines()[1]).toBe('$38,880 a month');
    await user.clear(shareField());
    await user.type(shareField(), '150');
    expect(shareField()).toHaveAccessibleDescription(/Write a share of the day in percent/);
  });

  it('restores the estimate of a shared address, and ignores one it cannot read', () => {
    const shared = renderApp('/?queries=12M#pricing');
    expect(queriesField()).toHaveValue('12M');
    expect(resultLines()[1]).toBe('$2,400 a month');
    shared.unmount();
    renderApp('/?queries=plenty#pricing');
    expect(queriesField()).toHaveValue('5M');
    expect(queriesField()).toBeValid();
    expect(resultLines()[1]).toBe('$1,000 a month');
  });

  it('hands the estimate to the invite form, keeping what the visitor typed there and the kept draft', async () => {
    vi.useFakeTimers();
    sessionStorage.setItem(draftKey, JSON.stringify({ companyName: 'Analytical Engines', estimatedMonthlyQueries: '1M' }));
    const { user } = renderApp('/', { fakeTimers: true });
    expect(inviteField('Company')).toHaveValue('Analytical Engines');
    await user.type(inviteField('Full name'), 'Ada Lovelace');
    await typeQueries(user, '12M');
    await user.type(peakField(), '300');
    await user.type(shareField(), '25');
    await typeQueries(user, '12M');
    await user.click(handOverLink());
    expect(inviteField('Estimated monthly queries')).toHaveValue('12M');
    expect(inviteField('Peak queries per second (QPS)')).toHaveValue('300 QPS');
    expect(inviteField('Full name')).toHaveValue('Ada Lovelace');
    expect(inviteField('Company')).toHaveValue('Analytical Engines');
    expect(inviteField('Estimated monthly queries')).toHaveFocus();
    // kept as the visitor's own typing is: 500 ms after the change (the draft's pause)
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(keptDraft()).toMatchObject({
      fullName: 'Ada Lovelace',
      companyName: 'Analytical Engines',
      estimatedMonthlyQueries: '12M',
      peakQPS: '300 QPS',
    });
  });

  it('hands over no peak when none was given, leaving the invite form\'s peak as it was', async () => {
    const { user } = renderApp('/');
    await user.type(inviteField('Peak queries per second (QPS)'), '50 QPS');
    await user.click(handOverLink());
    expect(inviteField('Estimated monthly queries')).toHaveValue('5M');
    expect(inviteField('Peak queries per second (QPS)')).toHaveValue('50 QPS');
  });

  it('keeps a hand-over made before the invite form is on the page, and the form takes it as it mounts', async () => {
    const alone = render(
      <StrictMode>
        <MemoryRouter initialEntries={['/?queries=12M#pricing']}>
          <Estimator />
        </MemoryRouter>
      </StrictMode>,
    );
    // no form to take it: the link is left to do what a link does, go to #invite
    expect(fireEvent.click(handOverLink())).toBe(true);
    alone.unmount();
    renderApp('/');
    expect(inviteField('Estimated monthly queries')).toHaveValue('12M');
  });
});

describe('the hand-over channel to the invite form', () => {
  it('gives values to the form on the page, or keeps the latest of each until one mounts', () => {
    expect(handOverToInviteForm({ estimatedMonthlyQueries: '1M', peakQPS: '10 QPS' })).toBe(false);
    expect(handOverToInviteForm({ estimatedMonthlyQueries: '2M' })).toBe(false);
    const received: unknown[] = [];
    const stop = receiveInviteHandOvers((values) => received.push(values));
    expect(received).toEqual([{ estimatedMonthlyQueries: '2M', peakQPS: '10 QPS' }]);
    expect(handOverToInviteForm({ estimatedMonthlyQueries: '3M' })).toBe(true);
    expect(received.at(-1)).toEqual({ estimatedMonthlyQueries: '3M' });
    stop();
    expect(handOverToInviteForm({ estimatedMonthlyQueries: '4M' })).toBe(false);
    // taken by the next form, so that no later test sees it
    receiveInviteHandOvers(() => {})();
  });
});

describe('prerendered, then hydrated', () => {
  let hydrated: { root: Root; container: HTMLElement } | undefined;
  afterEach(() => {
    act(() => hydrated?.root.unmount());
    hydrated?.container.remove();
    hydrated = undefined;
  });

  it('keeps a move of the slider made before hydration: the page\'s first script enables it, and hydration takes its volume', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const container = document.createElement('div');
    container.innerHTML = renderToString(appAt('/'));
    document.body.append(container);
    // disabled in the HTML, so that without JavaScript it does nothing, and without the example's
    // volume as its text, which a move before hydration would make untrue
    expect(slider()).toBeDisabled();
    expect(slider()).not.toHaveAttribute('aria-valuetext');
    // what the entry loader does as the page paints (scripts/build.mjs), then the visitor's three ArrowRight
    // presses on the native range input (jsdom has no native stepping), before any React code has run
    for (const control of container.querySelectorAll(`[${ENABLED_BEFORE_HYDRATION}]`)) (control as HTMLInputElement).disabled = false;
    expect(slider()).toBeEnabled();
    slider().value = String(Number(slider().value) + 3);
    expect(resultLines()[1]).toBe('$1,000 a month'); // nothing follows it yet
    const recoverable: unknown[] = [];
    await act(async () => {
      startTransition(() => {
        // a shared address's volume, which the visitor's move came after
        hydrated = { container, root: hydrateRoot(container, appAt('/?queries=12M#pricing'), { onRecoverableError: (error) => recoverable.push(error) }) };
      });
    });
    await waitFor(() => expect(queriesField()).not.toHaveAttribute('readonly'));
    expect(queriesField()).toHaveValue('10M');
    expect(slider()).toHaveAttribute('aria-valuetext', '10 million queries');
    expect(resultLines()).toEqual(['For 10M queries a month:', '$2,000 a month', '$24,000 a year', 'about 3.9 QPS on average']);
    expect(recoverable).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('reads the 5M example before hydration, hydrates on it with no mismatch, then shows the shared address\'s estimate', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const container = document.createElement('div');
    // one HTML for every address of `/`, as scripts/build.mjs writes it
    container.innerHTML = renderToString(appAt('/'));
    document.body.append(container);
    expect(queriesField()).toHaveValue('5M');
    expect(queriesField()).toHaveAttribute('readonly');
    expect(slider()).toBeDisabled();
    expect(resultLines()[1]).toBe('$1,000 a month');
    const prerendered = [...estimatorForm().querySelectorAll('*')];
    const recoverable: unknown[] = [];
    await act(async () => {
      startTransition(() => {
        hydrated = {
          container,
          root: hydrateRoot(container, appAt('/?queries=12M#pricing'), { onRecoverableError: (error) => recoverable.push(error) }),
        };
      });
    });
    await waitFor(() => expect(slider()).toBeEnabled());
    expect(recoverable).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    for (const node of prerendered) expect(container.contains(node)).toBe(true);
    expect(queriesField()).toHaveValue('12M');
    expect(queriesField()).not.toHaveAttribute('readonly');
    expect(resultLines()[1]).toBe('$2,400 a month');
  });
});
