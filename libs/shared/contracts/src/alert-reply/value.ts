import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID, Min, ValidateNested } from 'class-validator';

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
 * The processor's answer to one raw alert message, sent after the database commit to the reply
 * endpoint of the gateway instance that waits for it (ReplyEndpointValue).
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

  /**
   * Milliseconds the processor spent on the batch that held this message, from reading it to its
   * COMMIT: the gateway's Server-Timing `store`. Set when the reply is sent, never stored with the answer.
   */
  @IsOptional()
  @IsNumber()
  @Min(0)
  stored_ms?: number;
}

/**
 * The body of one POST to a gateway's reply endpoint: the replies of one processed batch for that
 * gateway instance, in batch order.
 */
export class AlertReplyBatchValue {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AlertReplyValue)
  replies!: AlertReplyValue[];
}

/**
 * A gateway's answer to a POST of replies: how many found a request waiting (`delivered`) and how
 * many came after their request had been answered 202, or for a request it does not know (`late`).
 */
export interface AlertReplyReceipt {
  delivered: number;
  late: number;
}
