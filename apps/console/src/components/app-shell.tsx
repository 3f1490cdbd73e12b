import { Link, NavLink, Outlet } from 'react-router';
import { useSession } from '../session/session';

/** Header, main navigation and the page. */
export function AppShell() {
  const { user, signOut } = useSession();
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
