import { useEffect, useId, useRef } from 'react';
import { Delivery } from '@console/api/types';
import { CopyButton } from '@console/components/copy-button';
import { bodyKeptNote, deliveryBodyView, formatByteCount, samplePayloadFrom, statusLabel } from '@console/lib/deliveries';
import { exactTime } from '@console/lib/time';

interface DeliveryBodyViewerProps {
  delivery: Delivery;
  /** Premium: a body can become the sample payload (custom mapping is Premium, spec 1.4). */
  premium: boolean;
  onUseAsSample(text: string): void;
  onClose(): void;
}

/**
 * A delivery's body as received: pretty-printed when it is JSON, the raw text otherwise, with how
 * much of it was kept, and "Use as sample payload" when it can be one (else disabled, with why).
 */
export function DeliveryBodyViewer({ delivery, premium, onUseAsSample, onClose }: DeliveryBodyViewerProps) {
  const headingId = useId();
  const reasonId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const view = deliveryBodyView(delivery.body);
  const kept = bodyKeptNote(delivery);
  const sample = samplePayloadFrom(delivery, premium);

  // Opening another delivery moves the focus to its body, so keyboard and screen reader users land there.
  useEffect(() => heading.current?.focus(), [delivery.id]);

  return (
    <section className="card delivery-body" aria-labelledby={headingId}>
      <div className="card-title">
        <h3 id={headingId} ref={heading} tabIndex={-1}>
          Body of the delivery
        </h3>
        <button type="button" className="button button-small" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted small">
        Received {exactTime(delivery.received_at)} · {statusLabel(delivery.status)}
        {delivery.error && <> · {delivery.error}</>} · {formatByteCount(delivery.body_size)} · {view.json ? 'JSON, pretty-printed' : 'not JSON, shown as received'}
        <br />
        Request ID <code>{delivery.request_id}</code>
      </p>
      {kept && (
        <p className="notice notice-warning" role="note">
          {kept}
        </p>
      )}
      {view.text === '' ? (
        <p className="muted">{kept ? 'No body was kept.' : 'The request had an empty body.'}</p>
      ) : (
        <pre className="code-block body-text" tabIndex={0} aria-label="Delivery body">
          {view.text}
        </pre>
      )}
      <div className="actions-left">
        <button
          type="button"
          className="button button-primary"
          disabled={!sample.ok}
          aria-describedby={sample.ok ? undefined : reasonId}
          onClick={() => sample.ok && onUseAsSample(sample.text)}
        >
          Use as sample payload
        </button>
        {delivery.body !== '' && <CopyButton value={delivery.body} label="Copy the body as received" />}
      </div>
      {!sample.ok && (
        <p className="hint" id={reasonId}>
          {sample.reason}
        </p>
      )}
    </section>
  );
}
