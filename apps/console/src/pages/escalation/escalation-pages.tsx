import { onDemand } from '@console/pages/oncall/oncall-pages';

// The escalation policy's editor is a chunk of its own, as the on-call screens are: most visits never open it.
export const EscalationPolicyPage = onDemand(() => import('./escalation-policy.page').then((module) => module.EscalationPolicyPage));
