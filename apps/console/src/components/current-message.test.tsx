import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ReactElement, useState } from 'react';
import { Link, MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@console/api/client';
import { useCurrentMessage } from './current-message';
import { ErrorMessage } from './error-message';

/** The hook reads the address: a screen is always under a router. */
const renderRouted = (element: ReactElement) => render(<MemoryRouter initialEntries={['/settings?tab=one']}>{element}</MemoryRouter>);

/** Two actions that report through one current message; the second's button goes away while it "runs". */
function Screen() {
  const message = useCurrentMessage();
  const [busy, setBusy] = useState(false);
  return (
    <>
      <button onClick={() => message.success('Copied.')}>Copy</button>
      {busy ? (
        <span>Setting…</span>
      ) : (
        <button
          onClick={() => {
            setBusy(true);
            setTimeout(() => {
              setBusy(false);
              message.error(new ApiError(400, 'invalid_secret', 'The secret must have 16 to 256 characters.'), 'Secret not set');
            }, 100);
          }}
        >
          Set secret
        </button>
      )}
      {message.view}
    </>
  );
}

describe('useCurrentMessage', () => {
  it('shows one message at a time, the latest replacing the last, in plain words', async () => {
    renderRouted(<Screen />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(screen.getAllByRole('status')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Set secret' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Secret not set: The secret must have 16 to 256 characters.');
    expect(alert).not.toHaveTextContent('400');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('keeps the focus on a control, and takes it when the focus dropped to the page', async () => {
    renderRouted(<Screen />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(screen.getByRole('button', { name: 'Copy' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Set secret' }));
    // The button went away while it ran, and the focus with it.
    expect(document.body).toHaveFocus();
    const alert = await screen.findByRole('alert');
    expect(alert.parentElement).toHaveFocus();
  });

  it('drops a success once an error is shown elsewhere on the screen after it', async () => {
    function Form() {
      const message = useCurrentMessage();
      const [failure, setFailure] = useState<unknown>(null);
      return (
        <>
          <button onClick={() => message.success('Saved.')}>Save</button>
          <button onClick={() => setFailure(new ApiError(400, 'invalid', 'The list could not be read.'))}>Reload</button>
          {message.view}
          <ErrorMessage error={failure} title="List" />
        </>
      );
    }
    renderRouted(<Form />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    // The success listens from the next task on: an error of the same render came before it.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(screen.getByRole('alert')).toHaveTextContent('List: The list could not be read.');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('drops a success when the address changes (another tab)', async () => {
    function Tabs() {
      const message = useCurrentMessage();
      return (
        <>
          <Link to="/settings?tab=two">Tab two</Link>
          <button onClick={() => message.success('Saved.')}>Save</button>
          {message.view}
        </>
      );
    }
    renderRouted(<Tabs />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    await userEvent.click(screen.getByRole('link', { name: 'Tab two' }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
