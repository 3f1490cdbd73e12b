import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Registry } from 'prom-client';

/** `GET /metrics` (CONTRACT.md "Across all services"): the process's metrics in Prometheus text format. */
@ApiTags('metrics')
@Controller()
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get('metrics')
  @ApiOperation({ summary: "The process's metrics, for Prometheus" })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format.', schema: { type: 'string' } })
  async metrics(@Res() response: Response): Promise<void> {
    const text = await this.registry.metrics();
    response.status(200).setHeader('Content-Type', this.registry.contentType).send(text);
  }
}
