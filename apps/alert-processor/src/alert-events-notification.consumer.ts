import { AlertEmailsService } from '@alert-ingestion/alerts-feature';
import { AlertEvent, Topic } from '@alert-ingestion/contracts';
import { ConsumedChunk } from '@alert-ingestion/kafka';
import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * alerts.events.v1 through the KafkaBatchTransport (group `alert-processor-notifications`, only with
 * SMTP_URL): new and resolved alerts become pending alert emails. Recording is idempotent per
 * (event, recipient), so a redelivered chunk mails nobody twice; a database that does not answer is
 * waited for (the partition holds, nothing is lost). An event that breaks its contract is logged and
 * skipped: the relay's own dead-letter topic keeps what it could not publish.
 */
@Controller()
export class AlertEventsNotificationConsumer {
  private readonly logger = new Logger('AlertEmailEvents');

  constructor(private readonly emails: AlertEmailsService) {}

  @EventPattern(Topic.AlertEvents)
  async record(@Payload() chunk: ConsumedChunk<Topic.AlertEvents>): Promise<void> {
    const events: AlertEvent.AlertEventValue[] = [];
    for (const message of chunk.messages) {
      try {
        events.push(chunk.decode(message));
      } catch (error) {
        this.logger.warn(`Skipped ${chunk.topic}/${chunk.partition}@${message.offset}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (let attempt = 1; events.length > 0 && chunk.isRunning(); attempt++) {
      try {
        await this.emails.record(events);
        return;
      } catch (error) {
        if (attempt === 1) this.logger.warn(`Recording alert emails of ${events.length} events failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(Math.min(5_000, 200 * attempt));
        await chunk.heartbeat();
      }
    }
  }
}
