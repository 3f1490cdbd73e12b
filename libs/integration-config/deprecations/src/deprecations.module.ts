import { DynamicModule, Module } from '@nestjs/common';
import { loadDeprecationCatalogue, locateCatalogue } from './catalogue-loader';
import { DEPRECATION_CATALOGUE, DeprecationsService } from './deprecations.service';

const CATALOGUE_DIRECTORY = Symbol('DEPRECATION_CATALOGUE_DIRECTORY');

/**
 * Provides DeprecationsService over the catalogue, which is read and validated while the module is
 * created: a malformed catalogue file fails application start-up with its file, field and line.
 * The HTTP controllers live in apps/integration-config/src/deprecations.
 */
@Module({
  providers: [
    {
      provide: DEPRECATION_CATALOGUE,
      inject: [{ token: CATALOGUE_DIRECTORY, optional: true }],
      useFactory: (directory?: string) => loadDeprecationCatalogue(directory ?? locateCatalogue().catalogueDirectory),
    },
    DeprecationsService,
  ],
  exports: [DeprecationsService],
})
export class DeprecationsModule {
  /** The same module over a catalogue in another folder (tests; deployments without the repository tree). */
  static withCatalogueDirectory(directory: string): DynamicModule {
    return { module: DeprecationsModule, providers: [{ provide: CATALOGUE_DIRECTORY, useValue: directory }] };
  }
}
