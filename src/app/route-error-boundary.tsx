import { Component, type ReactNode } from 'react';

export const ROUTE_ERROR_TEXT = {
  title: "This page couldn't load",
  body: 'Please check your connection and try again.',
  retry: 'Try again',
} as const;

type Props = {
  children: ReactNode;
  resetKey: string;
  /** What the retry does: reload the page (a test, which cannot navigate, watches instead). */
  onRetry?: () => void;
};

const reloadPage = () => window.location.reload();
type State = { failed: boolean; resetKey: string };

/**
 * Keeps the header, footer and the rest of the site working when a page's code cannot be
 * fetched (offline, or a deploy replaced the files): the visitor gets a message and a retry.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Navigating elsewhere clears the error.
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="not-found" role="alert">
        <h1>{ROUTE_ERROR_TEXT.title}</h1>
        <p>{ROUTE_ERROR_TEXT.body}</p>
        <button type="button" className="button button--primary" onClick={this.props.onRetry ?? reloadPage}>
          {ROUTE_ERROR_TEXT.retry}
        </button>
      </section>
    );
  }
}
