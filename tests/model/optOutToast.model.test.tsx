import { screen, within } from '@testing-library/dom';
import { expect } from 'vitest';
import { OPT_OUT_TOAST_MS } from '@/config/site';
import { OPT_OUT_MESSAGE } from '@/components/OptOutToast';
import { renderApp } from '../renderApp';
import { optOutToastModel } from './models';
import { describeModel } from './runner';
import { elapse } from './steps';

/** The opt-out toast's live region: the page's one status outside `<main>` (the cost estimator's `<output>` is one too). */
const toastStatus = () => screen.getAllByRole('status').find((status) => !status.closest('main'))!;

describeModel(optOutToastModel, {
  start: () => renderApp('/', { fakeTimers: true }),
  actions: {
    'toast.show': ({ user }) =>
      user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Do Not Sell or Share My Personal Information' })),
    'toast.dismiss': ({ user }) => user.click(screen.getByRole('button', { name: 'Dismiss' })),
    'xstate.after.toastDuration.optOutToast.visible': () => elapse(OPT_OUT_TOAST_MS),
  },
  expectView: (state) => {
    const status = toastStatus();
    if (state.matches('visible')) {
      expect(status).toHaveTextContent(OPT_OUT_MESSAGE);
      expect(screen.getByRole('button', { name: 'Dismiss' })).toBeVisible();
    } else {
      expect(status).toBeEmptyDOMElement();
      expect(screen.queryByRole('button', { name: 'Dismiss' })).not.toBeInTheDocument();
    }
  },
});
