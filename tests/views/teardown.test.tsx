import { render } from '@testing-library/preact';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';

// tests/setup.ts unmounts what a test rendered. Preact runs an unmounted component's effect cleanups after
// the next paint; the teardown must run them before the next test starts, or a cleanup that touches
// `window` can run after jsdom is gone, and one that stops a timer or a machine runs inside the next test.
const cleanedUp: string[] = [];

function WithCleanup({ name }: { name: string }) {
  useEffect(() => () => void cleanedUp.push(name), [name]);
  return <p>{name}</p>;
}

describe('test teardown', () => {
  it('renders a component with an effect cleanup', () => {
    render(<WithCleanup name="first test" />);
    expect(cleanedUp).toEqual([]);
  });

  it("has run the previous test's effect cleanups before this one starts", () => {
    expect(cleanedUp).toEqual(['first test']);
  });
});
