import { Severity } from '../api/types';

const LABELS: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
  unknown: 'Unknown',
};

/** Icon shapes differ per severity as GitLab's do, so colour is never the only cue. */
function SeverityIcon({ severity }: { severity: Severity }) {
  const common = { width: 16, height: 16, viewBox: '0 0 16 16', 'aria-hidden': true, className: `severity-icon severity-${severity}` };
  switch (severity) {
    case 'critical':
      return (
        <svg {...common}>
          <path d="M5 1h6l4 4v6l-4 4H5l-4-4V5z" />
          <path d="M7 4h2v5H7zM7 10.5h2v2H7z" fill="#fff" />
        </svg>
      );
    case 'high':
      return (
        <svg {...common}>
          <rect x="2.3" y="2.3" width="11.4" height="11.4" rx="1" transform="rotate(45 8 8)" />
        </svg>
      );
    case 'medium':
      return (
        <svg {...common}>
          <path d="M8 1.5 15 14H1z" />
        </svg>
      );
    case 'low':
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.5" />
        </svg>
      );
    case 'info':
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.5" />
          <path d="M7 7h2v5H7zM7 4h2v2H7z" fill="#fff" />
        </svg>
      );
    default:
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="5.5" fill="none" strokeWidth="2" />
        </svg>
      );
  }
}

export function SeverityLabel({ severity }: { severity: Severity }) {
  return (
    <span className="severity">
      <SeverityIcon severity={severity} />
      {LABELS[severity] ?? severity}
    </span>
  );
}
