import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DueBadge } from '@/components/team/DueBadge';
import { TEAM_REQUESTS } from '../../mocks/teamHandlers';

const privacy = TEAM_REQUESTS.find((request) => request.kind === 'privacy')!;

describe('a privacy request’s due date in the console', () => {
  it('says overdue once its due moment has come (0 days left, as the team’s digest and alert say), and counts the days left before', () => {
    const shown = (daysLeft: number) => {
      const { container, unmount } = render(<DueBadge request={{ ...privacy, dueAt: '2026-12-02T12:00:00.000Z', daysLeft }} />);
      const text = container.textContent;
      unmount();
      return text;
    };
    expect(shown(-2)).toMatch(/^Overdue by 2 days \(/);
    expect(shown(0)).toMatch(/^Overdue today \(/);
    expect(shown(1)).toMatch(/^1 day left \(/);
    expect(shown(4)).toMatch(/^4 days left \(/);
    // answered: the due date alone
    const { container } = render(<DueBadge request={{ ...privacy, dueAt: '2026-12-02T12:00:00.000Z', daysLeft: undefined }} />);
    expect(container.textContent).not.toMatch(/left|Overdue/);
    expect(container.textContent).toMatch(/2026/);
  });
});
