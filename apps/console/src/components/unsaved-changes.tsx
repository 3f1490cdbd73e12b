import { ReactElement, useCallback, useEffect, useRef } from 'react';
import { BlockerFunction, useBlocker } from 'react-router';
import { ConfirmDialog } from './confirm-dialog';

export interface UnsavedChangesGuard {
  /** Asks before the page is left while `dirty`: put it in the page. */
  dialog: ReactElement;
  /** The next navigation is the page's own (after saving): let it go without asking. */
  allowNextNavigation(): void;
}

/**
 * Asks before unsaved changes are lost: leaving the page through the console's navigation (tabs,
 * links, back and forward) opens a dialog to stay or leave; closing or reloading the browser tab
 * gets the browser's own question (`beforeunload`). Signing out is not held: it is asked for.
 * `what` names the changes in the dialog ("The changes to Configure details").
 */
export function useUnsavedChangesGuard(dirty: boolean, what: string): UnsavedChangesGuard {
  // Read when a navigation starts, which may come before the next render (a save's own redirect).
  const dirtyNow = useRef(dirty);
  const allowed = useRef(false);
  useEffect(() => {
    dirtyNow.current = dirty;
    if (!dirty) allowed.current = false;
  }, [dirty]);

  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    if (allowed.current) {
      allowed.current = false;
      return false;
    }
    return dirtyNow.current && currentLocation.pathname !== nextLocation.pathname && nextLocation.pathname !== '/sign-in';
  }, []);
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const dialog = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      cancelLabel="Stay on this page"
      confirmLabel="Leave without saving"
      danger
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      <p>{what} are not saved. Leave this page and lose them, or stay and save them first?</p>
    </ConfirmDialog>
  );
  return {
    dialog,
    allowNextNavigation: () => {
      allowed.current = true;
    },
  };
}
