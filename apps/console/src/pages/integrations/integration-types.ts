import { IntegrationType } from '@console/api/types';

/** Spec 1.3: the types of the "Add new integration" dropdown, as the list names them. */
export const INTEGRATION_TYPE_LABELS: Record<IntegrationType, string> = {
  http: 'HTTP Endpoint',
  external_link: 'External incident management',
};

/** Spec 1.4: the Free tier's limits, said where a control is disabled because of them. */
export const FREE_TIER_REASONS = {
  secondEndpoint: 'The Free tier has a single HTTP Endpoint per project. Premium allows several.',
  mapping: 'Custom mapping of payload fields needs the Premium tier.',
  externalLink: 'The external incident management link needs the Premium tier.',
};
