import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Min, ValidateNested } from 'class-validator';

export class CreatedAlertValue {
  @IsInt()
  @Min(1)
  iid!: number;

  @IsString()
  title!: string;
}

export class ReplyErrorValue {
  @IsString()
  error!: string;

  @IsString()
  message!: string;
}

/**
 * The processor's answer to one raw alert message, sent after the database commit.
 * `processed`: `alerts` lists every alert created or grouped into, in request order.
 * `rejected`: the message can never be processed (it went to the dead-letter topic); `error` says why.
 */
export class AlertReplyValue {
  @IsUUID()
  request_id!: string;

  @IsString()
  reply_to!: string;

  @IsIn(['processed', 'rejected'])
  status!: 'processed' | 'rejected';

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => CreatedAlertValue)
  alerts!: CreatedAlertValue[];

  @IsOptional()
  @ValidateNested()
  @Type(() => ReplyErrorValue)
  error?: ReplyErrorValue;
}
