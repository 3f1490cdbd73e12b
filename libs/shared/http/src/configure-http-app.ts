import { INestApplication, ValidationPipe } from '@nestjs/common';
import { HttpErrorFilter } from './http-error.filter';

/**
 * What every service's HTTP side shares: one error format, strict DTO validation and graceful
 * shutdown (SIGTERM/SIGINT run onModuleDestroy/beforeApplicationShutdown hooks, so consumers stop
 * and in-flight work finishes before connections close).
 */
export function configureHttpApp(app: INestApplication): INestApplication {
  app.useGlobalFilters(new HttpErrorFilter());
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.enableShutdownHooks();
  return app;
}
