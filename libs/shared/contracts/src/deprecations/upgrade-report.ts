import type { HttpSchemas } from '../http';

/**
 * One thing that is removed or changes at a milestone: an entry's removal, or another dated stage of
 * it. The API lists them under their milestone (MilestoneChanges), so its schema has no `milestone`.
 */
export type ScheduledChange = HttpSchemas['ScheduledChangeDto'] & { milestone: string };

export type MilestoneChanges = HttpSchemas['MilestoneChangesDto'];

export type UpgradeReport = HttpSchemas['UpgradeReportDto'];
