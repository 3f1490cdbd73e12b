import { FormEvent, useEffect, useId, useRef, useState } from 'react';
import { IntegrationChanges, useIntegrationMutations, useParsedSamplePayload } from '../../api/queries';
import { Integration, IntegrationType, PayloadFieldMappingEntry, Project } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { JsonField } from '../../components/json-field';
import { checkJsonText, isJsonObject } from '../../lib/json-text';
import { exactTime } from '../../lib/time';
import { FREE_TIER_REASONS, INTEGRATION_TYPE_LABELS } from './integration-types';
import { MappingBuilder } from './mapping-builder';
import { MappingPreview } from './mapping-preview';
import { checkRateLimit, RateLimitField } from './rate-limit-field';

/** A delivery's body put into the sample payload field ("Use as sample payload" on the Deliveries tab). */
export interface DraftSample {
  text: string;
  integrationId: number;
  deliveryId: number;
  receivedAt: string;
}

interface IntegrationDetailsFormProps {
  project: Project;
  /** null while adding a new integration. */
  integration: Integration | null;
  type: IntegrationType;
  onTypeChange(type: IntegrationType): void;
  /** A save starts: an earlier save's notice no longer applies. */
  onSaving?(): void;
  onSaved(integration: Integration, created: boolean): void;
  /** A sample payload taken from a delivery, not saved yet; it replaces the saved one in the field. */
  draftSample?: DraftSample | null;
  onDiscardDraft?(): void;
}

/**
 * "Configure details": type (new integrations only), name, Active toggle, the HTTP Endpoint's rate
 * limit, and on Premium the sample payload, "Parse payload for custom mapping", the payload field
 * mapping and a live preview of the sample under it; for the external link its API URL.
 * Premium-only controls stay visible on Free, disabled, with the reason.
 */
export function IntegrationDetailsForm({ project, integration, type, onTypeChange, onSaving, onSaved, draftSample, onDiscardDraft }: IntegrationDetailsFormProps) {
  const premium = project.tier === 'premium';
  const { create, update } = useIntegrationMutations(project.id);
  const save = integration ? update : create;
  const [name, setName] = useState(integration?.name ?? '');
  const [active, setActive] = useState(integration?.active ?? true);
  const [apiUrl, setApiUrl] = useState(integration?.api_url ?? '');
  const [samplePayload, setSamplePayload] = useState(draftSample?.text ?? integration?.sample_payload ?? '');
  const [rateLimit, setRateLimit] = useState(integration?.rate_limit_per_minute?.toString() ?? '');
  const [mapping, setMapping] = useState<PayloadFieldMappingEntry[]>(integration?.payload_field_mapping ?? []);
  // The sample payload text the mapping table was parsed from; the saved one is parsed on opening.
  const [parsedText, setParsedText] = useState<string | null>(premium ? (integration?.sample_payload ?? null) : null);
  const [problem, setProblem] = useState<string | null>(null);
  const parse = useParsedSamplePayload(project.id, parsedText);
  const typeId = useId();
  const nameId = useId();
  const activeId = useId();
  const apiUrlId = useId();
  const draftNotice = useRef<HTMLDivElement>(null);

  // Arriving from "Use as sample payload", the keyboard continues at the note about it.
  useEffect(() => {
    if (draftSample) draftNotice.current?.focus();
  }, [draftSample]);

  // Spec 2.1: when the sample payload changes, the mapping must be redone. Until then (and while
  // the saved sample is still being parsed) the mapping held is the one that is saved with it.
  const mappingCurrent = parsedText !== null && parsedText === samplePayload;
  const sampleCheck = samplePayload.trim() === '' ? null : checkJsonText(samplePayload, { object: true });
  const parsedSample = mappingCurrent && sampleCheck?.ok && isJsonObject(sampleCheck.value) ? sampleCheck.value : null;
  // What saving would store, and so what the preview shows the sample under.
  const savedMapping = mappingCurrent ? mapping : [];
  const showBuilder = mappingCurrent && parse.data !== undefined && parsedSample !== null;

  const parseSample = () => {
    setProblem(null);
    if (!sampleCheck?.ok) {
      setProblem(sampleCheck?.message ?? 'Enter a sample payload to parse.');
      return;
    }
    if (samplePayload !== (integration?.sample_payload ?? null)) setMapping([]);
    if (samplePayload === parsedText) void parse.refetch();
    else setParsedText(samplePayload);
  };

  const changes = (): IntegrationChanges | string => {
    if (type === 'external_link') {
      if (!/^https?:\/\/\S+$/.test(apiUrl.trim())) return 'Enter the API URL of the external tool (http:// or https://).';
      return { api_url: apiUrl.trim(), active };
    }
    const limit = checkRateLimit(rateLimit);
    if (!limit.ok) return `The rate limit is not accepted. ${limit.message}`;
    if (!premium) return { active, rate_limit_per_minute: limit.value };
    if (name.trim() === '') return 'Enter a name: each HTTP Endpoint of a Premium project is named.';
    if (sampleCheck && !sampleCheck.ok) return `The sample payload is not accepted. ${sampleCheck.message}`;
    return {
      name: name.trim(),
      active,
      rate_limit_per_minute: limit.value,
      sample_payload: samplePayload.trim() === '' ? null : samplePayload,
      payload_field_mapping: savedMapping,
    };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const body = changes();
    if (typeof body === 'string') {
      setProblem(body);
      return;
    }
    onSaving?.();
    if (integration) update.mutate({ id: integration.id, changes: body }, { onSuccess: (saved) => onSaved(saved, false) });
    else create.mutate({ type, ...body }, { onSuccess: (saved) => onSaved(saved, true) });
  };

  return (
    <form className="card integration-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={typeId}>Integration type</label>
        {integration ? (
          <input id={typeId} value={INTEGRATION_TYPE_LABELS[integration.type]} readOnly />
        ) : (
          <select id={typeId} value={type} onChange={(event) => onTypeChange(event.target.value as IntegrationType)} aria-describedby={`${typeId}-hint`}>
            <option value="http">{INTEGRATION_TYPE_LABELS.http}</option>
            <option value="external_link" disabled={!premium}>
              {INTEGRATION_TYPE_LABELS.external_link}
              {premium ? '' : ' (Premium)'}
            </option>
          </select>
        )}
        {!integration && !premium && (
          <div className="hint" id={`${typeId}-hint`}>
            {FREE_TIER_REASONS.externalLink}
          </div>
        )}
      </div>

      {type === 'http' && (
        <div className="field">
          <label htmlFor={nameId}>Name</label>
          <input
            id={nameId}
            value={premium ? name : (integration?.name ?? INTEGRATION_TYPE_LABELS.http)}
            onChange={(event) => setName(event.target.value)}
            disabled={!premium}
            required={premium}
            maxLength={255}
            aria-describedby={premium ? undefined : `${nameId}-hint`}
            autoComplete="off"
          />
          {!premium && (
            <div className="hint" id={`${nameId}-hint`}>
              The Free tier has a single HTTP Endpoint and asks no name. Named endpoints need Premium.
            </div>
          )}
        </div>
      )}

      {type === 'external_link' && (
        <>
          <div className="field">
            <label htmlFor={apiUrlId}>API URL</label>
            <input
              id={apiUrlId}
              type="url"
              value={apiUrl}
              onChange={(event) => setApiUrl(event.target.value)}
              placeholder="https://incidents.example.com/alerts"
              required
              aria-describedby={`${apiUrlId}-hint`}
            />
            <div className="hint" id={`${apiUrlId}-hint`}>
              Base URL of the external tool&apos;s alert list. While this integration is active, no other integration of the project may be
              active. The alert list then shows a &ldquo;View alerts&rdquo; link to it; that direct link is deprecated from release 13.8.
            </div>
          </div>
        </>
      )}

      <div className="field field-switch">
        <input id={activeId} type="checkbox" role="switch" checked={active} onChange={(event) => setActive(event.target.checked)} />
        <label htmlFor={activeId}>Active</label>
        <div className="hint">
          {type === 'http' ? 'Alerts sent to the URL are accepted only while the integration is active.' : 'Shows the link on the alerts list.'}
        </div>
      </div>

      {type === 'http' && <RateLimitField value={rateLimit} onChange={setRateLimit} />}

      {type === 'http' && (
        <fieldset className="mapping-section">
          <legend>Customize alert payload mapping</legend>
          {!premium && <div className="notice notice-info">{FREE_TIER_REASONS.mapping}</div>}
          {draftSample && (
            <div className="notice notice-info" role="status" ref={draftNotice} tabIndex={-1}>
              <p>
                The sample payload below is the body of the delivery of {exactTime(draftSample.receivedAt)}, not saved yet. Parse it for custom
                mapping, check the preview, then save.
              </p>
              {onDiscardDraft && (
                <button type="button" className="button button-small" onClick={onDiscardDraft}>
                  Discard it and keep the saved sample payload
                </button>
              )}
            </div>
          )}
          <JsonField
            label="Sample alert payload"
            value={samplePayload}
            onChange={(text) => setSamplePayload(text)}
            object
            optional
            disabled={!premium}
            rows={premium ? 12 : 3}
            hint="One alert as your monitoring tool sends it (a JSON object). Parse it, then choose which of its values fill each platform alert key."
          />
          <div className="actions-left">
            <button type="button" className="button" onClick={parseSample} disabled={!premium || parse.isFetching}>
              {parse.isFetching ? 'Parsing…' : 'Parse payload for custom mapping'}
            </button>
          </div>
          <ErrorMessage error={parse.error} title="Sample payload not parsed" />
          {premium && parsedText !== null && parsedText !== samplePayload && (
            <div className="notice notice-warning" role="status">
              The sample payload changed: parse it again to redo the mapping. Saving now clears the mapping.
            </div>
          )}
          <div className={showBuilder ? 'mapping-workbench' : undefined}>
            {showBuilder && parse.data && parsedSample && (
              <MappingBuilder fields={parse.data.payload_alert_fields} sample={parsedSample} mapping={mapping} onChange={setMapping} />
            )}
            {premium && (
              <MappingPreview
                projectId={project.id}
                integrationId={integration?.id ?? null}
                payload={sampleCheck?.ok ? samplePayload : null}
                mapping={savedMapping}
                noPayload="Enter a valid sample payload to preview the alert it becomes."
                description={
                  savedMapping.length > 0
                    ? 'The sample payload as an alert under the mapping above, before it is saved. Nothing is stored.'
                    : 'The sample payload as an alert without a mapping: each platform alert key is read from the payload property of its own name. Nothing is stored.'
                }
              />
            )}
          </div>
        </fieldset>
      )}

      {problem && (
        <div className="notice notice-error" role="alert">
          {problem}
        </div>
      )}
      <ErrorMessage error={save.error} title="Not saved" />
      <div className="actions-left">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save integration'}
        </button>
      </div>
    </form>
  );
}
