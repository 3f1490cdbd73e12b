import { AlertsDatabase } from '@alert-ingestion/alerts-data';
import { OncallHandoffsRepository, OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import { DynamicModule, Module } from '@nestjs/common';
import { OncallCalendarService } from './oncall-calendar.service';
import { OncallEventRelayHealthProbe, OncallEventRelayService } from './oncall-event-relay.service';
import { ONCALL_FEATURE_OPTIONS, OncallFeatureOptions } from './oncall-feature.options';
import { OncallHandoffsService } from './oncall-handoffs.service';
import { OncallOverridesService } from './oncall-overrides.service';
import { OncallSchedulesService } from './oncall-schedules.service';
import { OncallTimelines } from './oncall-timelines';
import { OncallEdits } from './oncall-edits';
import { OnCallService } from './on-call.service';

/**
 * On call's providers (docs/architecture.md "On call"): schedules, rotations, overrides, who is on
 * call, the calendar feed, the handoff publisher and its event relay. On the processor's database
 * (AlertsDatabase, from the global AlertsFeatureModule); needs the global KafkaModule, MetricsModule
 * and AccessModule. Global so that HealthModule's probe resolves.
 */
@Module({})
export class OncallFeatureModule {
  static forRoot(options: OncallFeatureOptions): DynamicModule {
    const onDatabase = <T>(repository: new (database: AlertsDatabase) => T) => ({
      provide: repository,
      inject: [AlertsDatabase],
      useFactory: (database: AlertsDatabase) => new repository(database),
    });
    const services = [OncallEdits, OncallTimelines, OncallSchedulesService, OnCallService, OncallOverridesService, OncallCalendarService, OncallHandoffsService, OncallEventRelayService, OncallEventRelayHealthProbe];
    return {
      module: OncallFeatureModule,
      global: true,
      providers: [{ provide: ONCALL_FEATURE_OPTIONS, useValue: options }, onDatabase(OncallSchedulesRepository), onDatabase(OncallHandoffsRepository), ...services],
      exports: services,
    };
  }
}
