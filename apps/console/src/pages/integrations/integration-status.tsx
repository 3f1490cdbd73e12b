import { IntegrationListItem } from '@console/api/types';
import { INTEGRATION_TYPE_LABELS } from './integration-types';

/** Whether an integration is enabled, as a coloured dot and a word; `withType` names its type first. */
export function IntegrationStatus({ integration, withType }: { integration: Pick<IntegrationListItem, 'active' | 'type'>; withType?: boolean }) {
  return (
    <span className={integration.active ? 'status-dot status-enabled' : 'status-dot status-disabled'}>
      {withType && `${INTEGRATION_TYPE_LABELS[integration.type]}: `}
      {integration.active ? 'Enabled' : 'Disabled'}
    </span>
  );
}
