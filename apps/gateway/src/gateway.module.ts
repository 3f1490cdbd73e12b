import { ConfigModule } from '@alert-ingestion/config';
import { GatewayEnv, GatewayFeatureModule, GatewayHealthProbe, gatewayKafkaOptions } from '@alert-ingestion/gateway-feature';
import { HealthModule } from '@alert-ingestion/http';
import { KafkaModule } from '@alert-ingestion/kafka';
import { MetricsModule } from '@alert-ingestion/metrics';
import { DynamicModule, Module } from '@nestjs/common';

@Module({})
export class GatewayModule {
  static forRoot(env: GatewayEnv): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        ConfigModule.forRoot(env),
        KafkaModule.forRoot(env, gatewayKafkaOptions(env)),
        MetricsModule.forRoot(),
        GatewayFeatureModule,
        HealthModule.forRoot({ imports: [GatewayFeatureModule], probes: [GatewayHealthProbe] }),
      ],
    };
  }
}
