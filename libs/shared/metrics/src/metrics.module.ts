import { DynamicModule, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Registry } from 'prom-client';
import { HttpRequestMetrics } from './http-request-metrics';
import { MetricsController } from './metrics.controller';
import { createMetricsRegistry } from './metrics-registry';

/**
 * `GET /metrics` on the service's HTTP port, the process's registry (injectable as prom-client's
 * `Registry`, with the default metrics) and `http_request_duration_seconds` of every request
 * Express answers. Global: the features register their own metrics in the same registry.
 */
@Module({})
export class MetricsModule {
  constructor(adapterHost: HttpAdapterHost, http: HttpRequestMetrics) {
    // Installed while NestFactory.create builds the app, so it comes before any middleware the app
    // adds later (body parsers included): an answer a body parser gives (400, 413) is timed too.
    adapterHost.httpAdapter?.use(http.middleware());
  }

  static forRoot(): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        { provide: Registry, useFactory: createMetricsRegistry },
        { provide: HttpRequestMetrics, useFactory: (registry: Registry) => new HttpRequestMetrics(registry), inject: [Registry] },
      ],
      exports: [Registry, HttpRequestMetrics],
    };
  }
}
