import { DynamicModule, Module } from '@nestjs/common';
import { AccessControl } from '../access-control';
import { SqlQuery } from '@alert-ingestion/sql';
import { AccessReader } from '../access-reader';
import { AuthenticationGuard, ProjectAccessGuard } from './access.guards';

export interface AccessModuleOptions {
  /** ADMIN_TOKEN: the bootstrap administrator's token. */
  adminToken: string;
  /** Builds the SqlQuery from the service's own database client (injected by `inject`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest factories take the injected providers positionally
  sqlQuery: { inject: any[]; useFactory: (...dependencies: any[]) => SqlQuery };
}

/**
 * AccessControl and its guards for a service's HTTP API; global so every controller's guards resolve.
 * Its AccessReader is exported too, for a service that names users (a timeline's actors).
 */
@Module({})
export class AccessModule {
  static forRoot(options: AccessModuleOptions): DynamicModule {
    return {
      module: AccessModule,
      global: true,
      providers: [
        {
          provide: AccessReader,
          inject: options.sqlQuery.inject,
          useFactory: (...dependencies: unknown[]) => new AccessReader(options.sqlQuery.useFactory(...dependencies)),
        },
        { provide: AccessControl, inject: [AccessReader], useFactory: (reader: AccessReader) => new AccessControl(reader, options.adminToken) },
        AuthenticationGuard,
        ProjectAccessGuard,
      ],
      exports: [AccessReader, AccessControl, AuthenticationGuard, ProjectAccessGuard],
    };
  }
}
