import { DynamicModule, Module } from '@nestjs/common';
import { loadDeprecationCatalogue } from './catalogue-loader';
import { DEPRECATION_CATALOGUE, DeprecationsService } from './deprecations.service';

export interface DeprecationsModuleOptions {
  /** The catalogue's folder; the repository's (located from the working directory) by default. */
  catalogueDirectory?: string;
}

/**
 * Provides DeprecationsService over the catalogue, which is read and validated while the module is
 * created: a malformed catalogue file fails application start-up with its file, field and line.
 * The HTTP controllers live in apps/integration-config/src/deprecations.
 */
@Module({})
export class DeprecationsModule {
  static forRoot(options: DeprecationsModuleOptions = {}): DynamicModule {
    return {
      module: DeprecationsModule,
      // Without a folder, loadDeprecationCatalogue locates the repository's.
      providers: [{ provide: DEPRECATION_CATALOGUE, useFactory: () => loadDeprecationCatalogue(options.catalogueDirectory) }, DeprecationsService],
      exports: [DeprecationsService],
    };
  }
}
