import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { lazyPage } from '#src/app/lazy-page.tsx';
import { ROUTE_ERROR_TEXT, RouteErrorBoundary } from '#src/app/route-error-boundary.tsx';

describe('a page whose code cannot be fetched', () => {
  it('shows a message with a retry instead of a blank site, and the next attempt fetches again', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const loader = vi
      .fn<() => Promise<() => React.JSX.Element>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(() => <h1>Privacy Policy</h1>);
    const Page = lazyPage('src/pages/privacy-page.tsx', loader);

    const reload = vi.fn();
    render(
      <RouteErrorBoundary resetKey="/privacy" onRetry={reload}>
        <Suspense fallback={null}>
          <Page />
        </Suspense>
      </RouteErrorBoundary>,
    );

    expect(
      await screen.findByRole('heading', { level: 1, name: ROUTE_ERROR_TEXT.title }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(ROUTE_ERROR_TEXT.body);
    expect(reload).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: ROUTE_ERROR_TEXT.retry }));
    expect(reload).toHaveBeenCalledTimes(1);

    // The failed fetch is not cached: a later preload tries again and succeeds.
    await expect(Page.preload()).resolves.toBeTypeOf('function');
    expect(loader).toHaveBeenCalledTimes(2);
    expect(consoleError).toHaveBeenCalled();
  });
});
