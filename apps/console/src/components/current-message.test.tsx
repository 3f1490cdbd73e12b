import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { useCurrentMessage } from './current-message';

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
    render(<Screen />);
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
    render(<Screen />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(screen.getByRole('button', { name: 'Copy' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Set secret' }));
    // The button went away while it ran, and the focus with it.
    expect(document.body).toHaveFocus();
    const alert = await screen.findByRole('alert');
    expect(alert.parentElement).toHaveFocus();
  });
});
