import { AlertNotificationView, NOTIFICATION_REASONS, NOTIFICATION_STATUSES, NotificationReason, NotificationStatus } from '@alert-ingestion/contracts';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Query of `GET /projects/:id/alert_notifications`. */
export class ListAlertNotificationsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Only the emails about this alert.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  alert_iid?: number;

  @ApiPropertyOptional({ enum: NOTIFICATION_STATUSES })
  @IsOptional()
  @IsIn(NOTIFICATION_STATUSES)
  status?: NotificationStatus;
}

export class AlertNotificationDto implements AlertNotificationView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ type: 'integer' })
  alert_iid!: number;

  @ApiProperty({ type: 'integer', description: 'The recipient user.' })
  user_id!: number;

  @ApiProperty({ description: "The recipient's address when the email was recorded.", example: 'jane@example.com' })
  recipient!: string;

  @ApiProperty({ enum: NOTIFICATION_REASONS, description: '`new`: the alert was created; `resolved`: it was resolved.' })
  reason!: NotificationReason;

  @ApiProperty({
    enum: NOTIFICATION_STATUSES,
    description: '`pending`: waiting for its bundle or retried after a refusal; `sent`; `failed`: refused at every attempt; `suppressed`: over the hourly cap.',
  })
  status!: NotificationStatus;

  @ApiProperty({ type: 'integer', description: 'Attempts at sending it so far.' })
  attempts!: number;

  @ApiProperty({ type: 'string', nullable: true, description: "The SMTP server's last refusal or the connection error." })
  error!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When a pending email is tried next; null otherwise.' })
  next_attempt_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  sent_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
