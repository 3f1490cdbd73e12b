import { IsString, Matches, MinLength } from 'class-validator';

/**
 * Where the gateway instance that waits for a raw alert's reply takes it: its reply listener's URL
 * (on a port of its own, reachable by the processors only) and the instance's random token, which
 * the processor presents as `Authorization: Bearer <token>`. Carried by the raw alert message.
 */
export class ReplyEndpointValue {
  @IsString()
  @Matches(/^https?:\/\/\S+$/, { message: 'url must be an http(s) URL' })
  url!: string;

  @IsString()
  @MinLength(16)
  token!: string;
}
