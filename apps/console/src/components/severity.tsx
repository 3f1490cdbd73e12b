import { ReactNode } from 'react';
import { Severity } from '@console/api/types';

/** Each severity in words. */
export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
  unknown: 'Unknown',
};

/** Icon shapes differ per severity as GitLab's do, so colour is never the only cue. */
const ICON_SHAPES: Record<Severity, ReactNode> = {
  critical: (
    <>
      <path d="M5 1h6l4 4v6l-4 4H5l-4-4V5z" />
      <path d="M7 4h2v5H7zM7 10.5h2v2H7z" fill="#fff" />
    </>
  ),
  high: <rect x="2.3" y="2.3" width="11.4" height="11.4" rx="1" transform="rotate(45 8 8)" />,
  medium: <path d="M8 1.5 15 14H1z" />,
  low: <circle cx="8" cy="8" r="6.5" />,
  info: (
    <>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M7 7h2v5H7zM7 4h2v2H7z" fill="#fff" />
    </>
  ),
  unknown: <circle cx="8" cy="8" r="5.5" fill="none" strokeWidth="2" />,
};

export function SeverityLabel({ severity }: { severity: Severity }) {
  return (
    <span className="severity-label">
      <svg width={16} height={16} viewBox="0 0 16 16" aria-hidden className={`severity-icon severity-${severity}`}>
        {ICON_SHAPES[severity] ?? ICON_SHAPES.unknown}
      </svg>
      {SEVERITY_LABELS[severity] ?? severity}
    </span>
  );
}
