import { PROJECT_TIERS, ProjectTier } from '@alert-ingestion/contracts';
import { ACCESS_LEVELS, AccessLevel, INTEGRATION_TYPES, IntegrationType } from '@alert-ingestion/integrations-domain';
import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, ValidateIf } from 'class-validator';

export class CreateUserDto {
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { message: 'username may hold letters, digits, "_", "." and "-", and starts with a letter or digit' })
  @MaxLength(255)
  username!: string;
}

export class CreateProjectDto {
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/, {
    message: 'path is one or more "/"-separated names of letters, digits, "_", "." and "-"',
  })
  @MaxLength(255)
  path!: string;

  @IsIn(PROJECT_TIERS)
  tier!: ProjectTier;
}

export class UpdateProjectDto {
  @IsIn(PROJECT_TIERS)
  tier!: ProjectTier;
}

export class AddMemberDto {
  @IsInt()
  @Min(1)
  user_id!: number;

  @IsIn(ACCESS_LEVELS)
  access_level!: AccessLevel;
}

/** Any of name, active, sample_payload, payload_field_mapping, api_url (CONTRACT.md). */
export class UpdateIntegrationDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  /** A JSON text (spec 2.1); null means none. */
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString({ message: 'sample_payload must be a string holding JSON' })
  sample_payload?: string | null;

  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsArray()
  payload_field_mapping?: unknown[] | null;

  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(2048)
  api_url?: string | null;
}

/**
 * CONTRACT.md "Integrations": what an update may set, plus the type, which only creation chooses
 * (default: the HTTP Endpoint). Rules beyond shape are the domain's.
 */
export class CreateIntegrationDto extends UpdateIntegrationDto {
  @IsOptional()
  @IsIn(INTEGRATION_TYPES)
  type?: IntegrationType;
}

export class ParseSamplePayloadDto {
  @IsString({ message: 'sample_payload must be a string holding JSON' })
  sample_payload!: string;
}

export class TestAlertDto {
  /** The test payload as JSON text (spec 4.2). A JSON value given directly is taken as its text. */
  @IsDefined({ message: 'payload is required: the test payload as JSON text' })
  payload!: unknown;
}
