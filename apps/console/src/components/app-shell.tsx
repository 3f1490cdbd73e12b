import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigationType } from 'react-router';
import { useSession } from '@console/session/session';

/**
 * After a navigation to another page the focus goes to its main heading (its h1, once shown: a page
 * may be loading first), as a screen reader user would otherwise be left on the body or on the link
 * that went. Moved only from nowhere (the body, or an element the new page removed) or from the
 * link that navigated, unless it is a tab of a tab bar; so the first page (a field it focuses
 * itself) and whatever a page focuses itself (a notice, a field) keep it.
 */
function useFocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const navigation = useNavigationType();
  // The page shown last: the first one (the browser's load, POP) and redirects (REPLACE) move nothing.
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    if (navigation === 'REPLACE') return;
    const main = document.getElementById('main');
    if (!main) return;
    const keep = () => {
      const focused = document.activeElement;
      if (!(focused instanceof HTMLElement) || focused === document.body || !focused.isConnected) return false;
      return !focused.matches('a[href]') || focused.closest('nav.tabs') !== null;
    };
    const focusHeading = () => {
      const heading = main.querySelector('h1');
      if (!heading) return false;
      if (!keep()) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname, navigation]);
}

/** Header, main navigation and the page. */
export function AppShell() {
  const { user, signOut } = useSession();
  useFocusHeadingOnNavigation();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          Alert ingestion
        </Link>
        <nav aria-label="Main" className="main-nav">
          {user && <NavLink to="/projects">Projects</NavLink>}
          <NavLink to="/deprecations">Deprecations</NavLink>
          {user?.is_admin && <NavLink to="/admin">Admin</NavLink>}
        </nav>
        <div className="user-menu">
          {user ? (
            <>
              <span className="username" title={user.is_admin ? 'Signed in with the administrator token' : undefined}>
                {user.username}
                {user.is_admin && <span className="badge">admin</span>}
              </span>
              {!user.is_admin && (
                <NavLink to="/profile" className="button button-small">
                  Profile
                </NavLink>
              )}
              <button type="button" className="button button-small" onClick={() => signOut()}>
                Sign out
              </button>
            </>
          ) : (
            <Link to="/sign-in" className="button button-small">
              Sign in
            </Link>
          )}
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
