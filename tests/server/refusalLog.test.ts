// @vitest-environment node
// Refused requests are logged without flooding the log (server/logger.ts createRefusalLog): the first of
// each kind at once, the rest counted and written as one line when REFUSAL_LOG_INTERVAL_MS ends.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFUSAL_LOG_INTERVAL_MS } from '../../server/limits.ts';
import { createLogger, createRefusalLog } from '../../server/logger.ts';

let lines: Array<Record<string, unknown>>;
const logger = () => createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
const messages = () => lines.map((line) => line.msg);

beforeEach(() => {
  lines = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the refusal log', () => {
  it(`logs the first refusal of a kind at once, and the others as one line when REFUSAL_LOG_INTERVAL_MS (${REFUSAL_LOG_INTERVAL_MS} ms) ends, not before`, () => {
    const refusals = createRefusalLog(logger());
    for (let i = 0; i < 1_000; i += 1) refusals.refused({ status: 429 }, 'submission refused: rate limit');
    expect(lines).toEqual([expect.objectContaining({ status: 429, msg: 'submission refused: rate limit' })]);
    vi.advanceTimersByTime(REFUSAL_LOG_INTERVAL_MS - 1);
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(lines[1]).toMatchObject({ level: 30, status: 429, repeated: 999, msg: 'submission refused: rate limit (999 more since its last line)' });
    // a new interval: the next refusal is logged at once again; an interval with none writes nothing
    refusals.refused({ status: 429 }, 'submission refused: rate limit');
    expect(lines).toHaveLength(3);
    vi.advanceTimersByTime(REFUSAL_LOG_INTERVAL_MS * 3);
    expect(lines).toHaveLength(3);
    refusals.close();
  });

  it('counts each kind apart, keeps the fields of the first refusal it counted, and logs what it holds when closed', () => {
    const refusals = createRefusalLog(logger());
    refusals.refused({ status: 403, path: '/api/submissions' }, 'request refused: origin not allowed');
    refusals.refused({ status: 401, path: '/api/team/requests' }, 'team call refused: no session');
    refusals.refused({ status: 403, path: '/api/privacy/verify' }, 'request refused: origin not allowed');
    refusals.refused({ status: 403, path: '/api/submissions' }, 'request refused: origin not allowed');
    expect(messages()).toEqual(['request refused: origin not allowed', 'team call refused: no session']);
    refusals.close();
    expect(lines[2]).toMatchObject({ status: 403, path: '/api/privacy/verify', repeated: 2, msg: 'request refused: origin not allowed (2 more since its last line)' });
    expect(lines).toHaveLength(3);
    // closed: the interval is stopped, and closing again writes nothing
    vi.advanceTimersByTime(REFUSAL_LOG_INTERVAL_MS);
    refusals.close();
    expect(lines).toHaveLength(3);
  });
});
