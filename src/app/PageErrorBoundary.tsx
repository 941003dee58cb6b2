import { Component, type ReactNode } from 'react';
import { PageError } from '@/pages/PageError';

interface Props {
  /** The location's key: a new one with every navigation, to the same address too. */
  locationKey: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
  locationKey: string;
}

/**
 * Shows {@link PageError} inside the layout when the page throws while rendering (a bug, a chunk that
 * cannot be fetched), until the visitor goes anywhere else (spec §8: nothing breaks the page).
 *
 * The error is cleared while rendering the navigation (`getDerivedStateFromProps`), so the reset is part
 * of the router's transition: the error page stays on screen until the next page can render, as any page
 * does. react-error-boundary clears it in `componentDidUpdate`, an update of its own outside the
 * transition, which showed an empty `<main>` while the next page's chunk loaded
 * (https://react.dev/reference/react/Component#static-getderivedstatefromprops).
 */
export class PageErrorBoundary extends Component<Props, State> {
  state: State = { failed: false, locationKey: this.props.locationKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.locationKey === state.locationKey ? null : { failed: false, locationKey: props.locationKey };
  }

  componentDidCatch(error: Error): void {
    console.error('[page] could not be shown:', error);
  }

  render(): ReactNode {
    return this.state.failed ? <PageError /> : this.props.children;
  }
}
