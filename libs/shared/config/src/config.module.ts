import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigService } from './config.service';

@Global()
@Module({})
export class ConfigModule {
  /** Registers an already validated environment (see loadConfig) for injection as ConfigService. */
  static forRoot<Env extends object>(env: Env): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: ConfigService, useValue: new ConfigService(env) }],
      exports: [ConfigService],
    };
  }
}
