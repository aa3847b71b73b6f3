import { act, cleanup, render, screen } from '@testing-library/react';
import * as HotToast from 'react-hot-toast';
import { LazyToaster } from '#src/components/lazy-toaster.tsx';
import { setToastLoaderForTests, toast } from '#src/lib/toast.ts';

/** Shows a toast and lets the library load (or fail to) inside act. */
async function showToast(show: () => void) {
  await act(async () => {
    show();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('LazyToaster', () => {
  afterEach(() => {
    cleanup();
    setToastLoaderForTests(() => import('react-hot-toast'));
  });

  it('shows toasts through react-hot-toast once it has loaded', async () => {
    setToastLoaderForTests(() => Promise.resolve(HotToast));
    render(<LazyToaster />);
    await showToast(() => toast.error('Something went wrong. Please try again.'));
    expect(await screen.findByText('Something went wrong. Please try again.')).toBeInTheDocument();
    expect(document.querySelector('.toast-fallback')).toBeNull();
  });

  it('still shows the message, announced, when the library cannot be fetched (offline)', async () => {
    const loader = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    setToastLoaderForTests(loader);
    render(<LazyToaster />);
    await showToast(() => toast.error('Something went wrong. Please try again.'));
    const message = await screen.findByText('Something went wrong. Please try again.');
    expect(message.closest('[role="status"]')).toHaveAttribute('aria-live', 'polite');
    // A later toast tries the library again rather than giving up for good.
    await showToast(() => toast.success('Thanks'));
    expect(await screen.findByText('Thanks')).toBeInTheDocument();
    expect(loader).toHaveBeenCalledTimes(2);
  });
});
