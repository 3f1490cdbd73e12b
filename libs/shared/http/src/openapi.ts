import { applyDecorators, INestApplication, Logger, LoggerService, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiResponse, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ErrorBody } from './http-error.filter';
import { setSecurityHeaders } from './security-headers';

/** Where each service with an API serves its OpenAPI 3 document and Swagger UI (CONTRACT.md "Across all services"). */
export const OPENAPI_DOCUMENT_PATH = '/api/v4/openapi.json';
export const OPENAPI_UI_PATH = '/api/v4/docs';

/** The two ways to present a token (CONTRACT.md "Management API"), as security scheme names of the document. */
export const BEARER_TOKEN_SCHEME = 'bearer_token';
export const PRIVATE_TOKEN_SCHEME = 'private_token';

/** A problem of a refused document. */
export class DocumentProblemDto {
  @ApiProperty({ description: 'A JSON pointer into the document.', example: '/schedules/0/time_zone' })
  pointer!: string;

  @ApiProperty()
  message!: string;
}

/** The `{error, message}` body of every error answer. */
export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ description: 'Stable snake_case code clients can branch on.', example: 'not_found' })
  error!: string;

  @ApiProperty({ description: 'What went wrong, for people.', example: 'Project not found.' })
  message!: string;

  @ApiPropertyOptional({
    description: 'The request field the refusal is about, as the request names it (`ends_at`, `matchers[0].value`), when it is about one.',
    example: 'ends_at',
  })
  field?: string;

  @ApiPropertyOptional({ type: [DocumentProblemDto], description: 'A document refused whole (`invalid_document`): every problem, at its JSON pointer.' })
  errors?: DocumentProblemDto[];
}

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'The input is invalid (`validation_failed`, `invalid_json`, `invalid_text` for text with NUL or an unpaired surrogate, `payload_too_deep`, ...).',
  401: 'No token, or an unknown, expired or revoked one.',
  403: 'The caller may not do this.',
  404: 'Not found.',
  409: 'It conflicts with the current state.',
  412: 'Written against another version than the current one (If-Match).',
  413: 'The request body is too large.',
  422: 'The input cannot be processed.',
  503: 'A dependency is unavailable; retry later.',
};

/**
 * The error answers a route can give, each with the `{error, message}` body. Statuses are numbers or
 * `[status, description]` when the route has more to say than the generic description.
 *   @ApiErrorResponses(400, [409, 'The username is taken.'])
 */
export function ApiErrorResponses(...statuses: Array<number | readonly [number, string]>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((entry) => {
      const [status, description] = typeof entry === 'number' ? [entry, ERROR_DESCRIPTIONS[entry] ?? `Error ${entry}.`] : entry;
      return ApiResponse({ status, description, type: ErrorBodyDto });
    }),
  );
}

/** A 200 answer that is one page of a list, with GitLab's pagination headers (see paginationHeaders). */
export function ApiPageResponse(type: Type<unknown>, description: string): MethodDecorator & ClassDecorator {
  const header = (text: string) => ({ description: text, schema: { type: 'string' } });
  return ApiOkResponse({
    description,
    type: [type],
    headers: {
      'X-Total': header('Items in all pages.'),
      'X-Total-Pages': header('Number of pages.'),
      'X-Page': header('This page.'),
      'X-Per-Page': header('Items per page.'),
      'X-Next-Page': header('The next page; empty on the last one.'),
      'X-Prev-Page': header('The previous page; empty on the first one.'),
    },
  });
}

/**
 * An Express middleware that answers API operations without an Express route of its own (a proxy
 * mounted on path prefixes) names them, as the OpenAPI document does (`GET /api/v4/projects/{id}/alerts`),
 * so that a check of the document against what the app serves counts them.
 */
export interface ApiOperationsMiddleware {
  readonly apiOperations: readonly string[];
}

export interface OpenApiOptions {
  title: string;
  description: string;
  /**
   * Controllers describing operations the app answers without a controller of its own (a proxy):
   * documented beside the app's, never routed.
   */
  documentationOnly?: ReadonlyArray<Type<unknown>>;
}

@Module({})
class DocumentationOnlyModule {}

/** The paths and schemas Swagger reads from controllers that are not the app's (see OpenApiOptions.documentationOnly). */
async function documentationOnly(controllers: ReadonlyArray<Type<unknown>>, config: Omit<OpenAPIObject, 'paths'>): Promise<Pick<OpenAPIObject, 'paths' | 'components'>> {
  // A Nest app of its own that is never initialised: Nest routes a controller in an app it
  // initialises, and Swagger only reads controllers of an app. NestFactory makes the logger it is
  // given the process-wide one (Logger.overrideLogger): the service's own logger is put back after,
  // or the service would log nothing more (its "listening on port" line included).
  const serviceLogger = (Logger as unknown as { staticInstanceRef?: LoggerService }).staticInstanceRef;
  const app = await NestFactory.create({ module: DocumentationOnlyModule, controllers: [...controllers] }, { logger: false });
  try {
    return SwaggerModule.createDocument(app, config);
  } finally {
    await app.close();
    Logger.overrideLogger(serviceLogger ?? false);
  }
}

/**
 * The OpenAPI 3 document the app's controllers (and `options.documentationOnly`) describe. The app
 * need not be initialised: one created with `preview: true` (no provider built, nothing connected)
 * gives the same document, which is how tools/console-api writes the console's client types.
 */
export async function createOpenApiDocument(app: INestApplication, options: OpenApiOptions): Promise<OpenAPIObject> {
  const config = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion('v4')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN or a personal access token: `Authorization: Bearer <token>`.' }, BEARER_TOKEN_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'ADMIN_TOKEN or a personal access token.' }, PRIVATE_TOKEN_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config);
  if (options.documentationOnly?.length) {
    const other = await documentationOnly(options.documentationOnly, config);
    Object.assign(document.paths, other.paths);
    document.components = { ...document.components, schemas: { ...document.components?.schemas, ...other.components?.schemas } };
  }
  return document;
}

/**
 * Serves the OpenAPI 3 document the controllers describe (createOpenApiDocument) at OPENAPI_DOCUMENT_PATH, and Swagger UI at
 * OPENAPI_UI_PATH with its scripts and styles from swagger-ui-dist (our own origin: the page works
 * offline). Call before `app.init()`, so these routes come before the not-found handler.
 */
export async function serveOpenApi(app: INestApplication, options: OpenApiOptions): Promise<OpenAPIObject> {
  const document = await createOpenApiDocument(app, options);
  // Swagger UI's page has inline styles: its own Content-Security-Policy (see CONTENT_SECURITY_POLICIES).
  app.use(OPENAPI_UI_PATH, (_request: unknown, response: ServerResponse, next: () => void) => {
    setSecurityHeaders(response, 'swaggerUi');
    next();
  });
  SwaggerModule.setup(OPENAPI_UI_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_DOCUMENT_PATH,
    raw: ['json'],
    customSiteTitle: options.title,
    // Swagger UI asks an online validator for a badge by default; nothing leaves our origin.
    swaggerOptions: { validatorUrl: null },
  });
  return document;
}
