import { ReactNode } from 'react';
import { Link } from 'react-router';

export interface TabLink {
  id: string;
  label: ReactNode;
  /** How many the tab lists, after its label ('–' until known); none when undefined. */
  count?: number | string;
  to: string;
  active: boolean;
  /** A tab that cannot be used yet stays visible, with the reason. */
  disabledReason?: string;
}

/** Tabs that are links (each has its own address), so back, reload and new-tab work. */
export function TabNav({ label, tabs }: { label: string; tabs: TabLink[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.id}>
            {tab.disabledReason ? (
              <span className="tab tab-disabled" aria-disabled="true" title={tab.disabledReason}>
                {tab.label}
                <span className="visually-hidden"> ({tab.disabledReason})</span>
              </span>
            ) : (
              <Link to={tab.to} className={tab.active ? 'tab tab-active' : 'tab'} aria-current={tab.active ? 'page' : undefined}>
                {tab.label}
                {tab.count !== undefined && (
                  <>
                    {' '}
                    <span className="count">{tab.count}</span>
                  </>
                )}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
