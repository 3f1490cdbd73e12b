import {
  CHANGE_KINDS,
  ChangeKind,
  CODE_QUALITY_SEVERITIES,
  CodeQualityIssue,
  CodeQualitySeverity,
  DEPRECATION_AREAS,
  DeprecationArea,
  DeprecationEntry,
  DeprecationIdentifier,
  IDENTIFIER_KINDS,
  IdentifierKind,
  MilestoneChanges,
  MilestoneStage,
  LinkedPipelineFinding,
  RECEIVER_FEATURE_CHANGE_KINDS,
  ReceiverFeature,
  ReceiverFeatureChange,
  ScheduledChange,
  UpgradeReport,
} from '@alert-ingestion/deprecations';
import { ApiProperty, PickType } from '@nestjs/swagger';

// The deprecation catalogue's answers as the OpenAPI document describes them (spec 9; CONTRACT.md
// "deprecations"). Each class implements the type the service returns, so the two cannot drift apart.

const MILESTONE = { example: '15.0', pattern: '^\\d+\\.\\d+$' };
const DATE = { type: 'string', format: 'date', nullable: true, example: '2022-05-22' } as const;

export class DeprecationIdentifierDto implements DeprecationIdentifier {
  @ApiProperty({ enum: IDENTIFIER_KINDS })
  kind!: IdentifierKind;

  @ApiProperty({ description: 'Exactly as the spec writes it.' })
  name!: string;

  @ApiProperty({ type: 'string', nullable: true })
  replacement!: string | null;

  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true })
  value!: string | number | null;

  @ApiProperty({ type: 'string', nullable: true })
  context!: string | null;

  @ApiProperty({ type: [String] })
  aliases!: string[];
}

export class MilestoneStageDto implements MilestoneStage {
  @ApiProperty(MILESTONE)
  milestone!: string;

  @ApiProperty(DATE)
  planned_date!: string | null;

  @ApiProperty({ enum: CHANGE_KINDS })
  kind!: ChangeKind;

  @ApiProperty()
  breaking!: boolean;

  @ApiProperty()
  change!: string;
}

export class DeprecationEntryDto implements DeprecationEntry {
  @ApiProperty({ description: 'Stable: never contains a milestone.' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ enum: DEPRECATION_AREAS })
  area!: DeprecationArea;

  @ApiProperty({ enum: CHANGE_KINDS })
  kind!: ChangeKind;

  @ApiProperty(MILESTONE)
  removal_milestone!: string;

  @ApiProperty(DATE)
  planned_date!: string | null;

  @ApiProperty()
  breaking!: boolean;

  @ApiProperty({ description: "The spec's text for the change." })
  change!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'What to do instead.' })
  replacement!: string | null;

  @ApiProperty({ type: [DeprecationIdentifierDto] })
  identifiers!: DeprecationIdentifier[];

  @ApiProperty({ type: [MilestoneStageDto], description: 'Further dated steps of the same entry.' })
  other_milestones!: MilestoneStage[];

  @ApiProperty({ example: '9.4 CI/CD configuration' })
  spec_section!: string;
}

/** A change of a release as the upgrade report lists it: the entry's own fields, documented once (DeprecationEntryDto). */
export class ScheduledChangeDto
  extends PickType(DeprecationEntryDto, ['title', 'area', 'kind', 'breaking', 'planned_date'] as const)
  implements Omit<ScheduledChange, 'milestone'>
{
  @ApiProperty()
  id!: string;

  @ApiProperty()
  change!: string;

  @ApiProperty()
  what_to_do!: string;

  @ApiProperty()
  spec_section!: string;
}

export class MilestoneChangesDto implements MilestoneChanges {
  @ApiProperty(MILESTONE)
  milestone!: string;

  @ApiProperty({ type: [ScheduledChangeDto] })
  changes!: Omit<ScheduledChange, 'milestone'>[];
}

export class UpgradeReportDto implements UpgradeReport {
  @ApiProperty(MILESTONE)
  from!: string;

  @ApiProperty(MILESTONE)
  to!: string;

  @ApiProperty({ type: [MilestoneChangesDto], description: 'What is removed or changes after `from` up to and including `to`, by milestone.' })
  milestones!: MilestoneChanges[];
}

export class PipelineFindingDto implements LinkedPipelineFinding {
  @ApiProperty({ example: 'type-keywords' })
  rule!: string;

  @ApiProperty({ type: 'integer', description: 'Line in the configuration (1-based).' })
  line!: number;

  @ApiProperty()
  message!: string;

  @ApiProperty(MILESTONE)
  removal_milestone!: string;

  @ApiProperty({ type: 'string', nullable: true })
  replacement!: string | null;

  @ApiProperty({ description: 'The catalogue entry the finding comes from (see GET /deprecations).' })
  deprecation_id!: string;
}

export class PipelineFindingsDto {
  @ApiProperty({ type: [PipelineFindingDto] })
  findings!: LinkedPipelineFinding[];
}

class CodeQualityLinesDto {
  @ApiProperty({ type: 'integer' })
  begin!: number;
}

class CodeQualityLocationDto {
  @ApiProperty({ example: '.gitlab-ci.yml' })
  path!: string;

  @ApiProperty({ type: CodeQualityLinesDto })
  lines!: CodeQualityLinesDto;
}

export class CodeQualityIssueDto implements CodeQualityIssue {
  @ApiProperty()
  description!: string;

  @ApiProperty()
  check_name!: string;

  @ApiProperty()
  fingerprint!: string;

  @ApiProperty({ enum: CODE_QUALITY_SEVERITIES })
  severity!: CodeQualitySeverity;

  @ApiProperty({ type: CodeQualityLocationDto })
  location!: CodeQualityLocationDto;
}

export class ReceiverFeatureChangeDto implements ReceiverFeatureChange {
  @ApiProperty(MILESTONE)
  milestone!: string;

  @ApiProperty({ enum: RECEIVER_FEATURE_CHANGE_KINDS })
  kind!: ReceiverFeatureChange['kind'];

  @ApiProperty()
  change!: string;
}

export class ReceiverFeatureDto implements ReceiverFeature {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  feature!: string;

  @ApiProperty(MILESTONE)
  introduced_in!: string;

  @ApiProperty({ type: [ReceiverFeatureChangeDto] })
  changes!: ReceiverFeatureChange[];
}
