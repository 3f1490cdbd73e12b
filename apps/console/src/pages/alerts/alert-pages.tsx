import { onDemand } from '@console/pages/oncall/oncall-pages';

// An alert's page is a chunk of its own, loaded when one is opened (with its triage actions and
// shortcuts), so the main bundle stays within its budget (vite.config.mts).

export const AlertDetailPage = onDemand(() => import('./alert-detail.page').then((module) => module.AlertDetailPage));
