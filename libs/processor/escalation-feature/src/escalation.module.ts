import { onDatabase } from '@alert-ingestion/alerts-feature';
import { EscalationPoliciesRepository, EscalationsRepository, PagingRepository } from '@alert-ingestion/escalation-data';
import { DynamicModule, Module } from '@nestjs/common';
import { Registry } from 'prom-client';
import { AlertEscalationService } from './alert-escalation.service';
import { EscalationEngine } from './escalation-engine.service';
import { EscalationEventsConsumer, EscalationEventsHealthProbe } from './escalation-events.consumer';
import { EscalationMetrics } from './escalation-metrics';
import { EscalationPoliciesService } from './escalation-policies.service';
import { ESCALATION_OPTIONS, EscalationOptions } from './escalation.options';
import { PageSenders } from './page-senders';
import { PagingService } from './paging.service';
import { OncallConfigService } from './oncall-config.service';
import { OncallSchedulesRepository } from '@alert-ingestion/oncall-data';

/**
 * Escalation until someone acknowledges (docs/architecture.md "Escalation"): policies, each user's
 * paging, the escalation consumer of alert events, the engine and its senders. Builds on the alert
 * workflow (`workflow`: the module of WorkflowModule.forRoot, for its consumers' base) and on call,
 * never the other way round; its consumer and engine run in instances of the workflow role, its API
 * in every instance. Needs the global AlertsFeatureModule, AccessModule, KafkaModule and MetricsModule.
 */
@Module({})
export class EscalationModule {
  static forRoot(options: EscalationOptions, workflow: DynamicModule): DynamicModule {
    const providers = [
      { provide: ESCALATION_OPTIONS, useValue: options },
      onDatabase(EscalationPoliciesRepository),
      onDatabase(EscalationsRepository),
      onDatabase(PagingRepository),
      // The on-call rooms' own repository, for the configuration document's edits.
      onDatabase(OncallSchedulesRepository),
      { provide: EscalationMetrics, useFactory: (registry: Registry) => new EscalationMetrics(registry), inject: [Registry] },
      PageSenders,
      EscalationPoliciesService,
      PagingService,
      AlertEscalationService,
      OncallConfigService,
      EscalationEventsConsumer,
      EscalationEventsHealthProbe,
      EscalationEngine,
    ];
    return { module: EscalationModule, imports: [workflow], providers, exports: providers };
  }
}
