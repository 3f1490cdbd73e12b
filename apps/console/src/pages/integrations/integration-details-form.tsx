import { FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useIntegrationMutations, useParsedSamplePayload } from '@console/api/queries';
import { Integration, IntegrationChanges, IntegrationType, PayloadFieldMappingEntry, Project } from '@console/api/types';
import { ErrorMessage } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { ApiErrorFields, fieldOfApiError, useFormErrors } from '@console/components/form-errors';
import { JsonField } from '@console/components/json-field';
import { useUnsavedChangesGuard } from '@console/components/unsaved-changes';
import { checkJsonText, isJsonObject } from '@console/lib/json-text';
import { exactTime } from '@console/lib/time';
import { FREE_TIER_REASONS, INTEGRATION_TYPE_LABELS } from './integration-types';
import { MappingBuilder } from './mapping-builder';
import { MappingPreview } from './mapping-preview';
import { checkHeartbeatInterval, HeartbeatField } from './heartbeat-field';
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

/** The fields that can be wrong. */
type DetailsField = 'name' | 'apiUrl' | 'active' | 'rateLimit' | 'heartbeat' | 'samplePayload' | 'mapping';
type FieldErrors = Partial<Record<DetailsField, string>>;

/** The API's refusals that are about one field (its error codes, CONTRACT.md "Integrations"): shown at that field. */
const API_ERROR_FIELDS: ApiErrorFields<DetailsField> = {
  codes: {
    invalid_name: 'name',
    name_taken: 'name',
    invalid_api_url: 'apiUrl',
    active_integration_conflict: 'active',
    invalid_rate_limit: 'rateLimit',
    invalid_heartbeat_interval: 'heartbeat',
    invalid_sample_payload: 'samplePayload',
    invalid_payload_field_mapping: 'mapping',
  },
  fields: {
    name: 'name',
    api_url: 'apiUrl',
    active: 'active',
    rate_limit_per_minute: 'rateLimit',
    heartbeat_interval_minutes: 'heartbeat',
    sample_payload: 'samplePayload',
    payload_field_mapping: 'mapping',
  },
};

/** What the form edits, as typed. */
interface DetailsValues {
  name: string;
  active: boolean;
  apiUrl: string;
  rateLimit: string;
  heartbeat: string;
  samplePayload: string;
  /** The mapping saving would store. */
  mapping: PayloadFieldMappingEntry[];
}

function savedValues(integration: Integration | null): DetailsValues {
  return {
    name: integration?.name ?? '',
    active: integration?.active ?? true,
    apiUrl: integration?.api_url ?? '',
    rateLimit: integration?.rate_limit_per_minute?.toString() ?? '',
    heartbeat: integration?.heartbeat_interval_minutes?.toString() ?? '',
    samplePayload: integration?.sample_payload ?? '',
    mapping: integration?.payload_field_mapping ?? [],
  };
}

/** The values as saving would send them, for this type and tier: two that compare equal save the same. */
function comparable(values: DetailsValues, type: IntegrationType, premium: boolean): string {
  if (type === 'external_link') return JSON.stringify([values.active, values.apiUrl.trim()]);
  if (!premium) return JSON.stringify([values.active, values.rateLimit.trim(), values.heartbeat.trim()]);
  const sample = values.samplePayload.trim() === '' ? '' : values.samplePayload;
  return JSON.stringify([values.name.trim(), values.active, values.rateLimit.trim(), values.heartbeat.trim(), sample, values.mapping]);
}

/**
 * "Configure details": type (new integrations only), name, Active toggle, the HTTP Endpoint's rate
 * limit and heartbeat interval, and on Premium the sample payload, "Parse payload for custom mapping", the payload field
 * mapping and a live preview of the sample under it; for the external link its API URL.
 * Premium-only controls stay visible on Free, disabled, with the reason. Each error is shown once,
 * at its field (which it describes, `aria-invalid`), until that field changes; saving moves the
 * focus to the first field in error. Leaving with unsaved changes asks first.
 */
export function IntegrationDetailsForm({ project, integration, type, onTypeChange, onSaving, onSaved, draftSample, onDiscardDraft }: IntegrationDetailsFormProps) {
  const premium = project.tier === 'premium';
  const { create, update } = useIntegrationMutations(project.id);
  const save = integration ? update : create;
  // What is saved: the integration as opened (a delivery's draft sample is a change), then each save.
  const [baseline, setBaseline] = useState(() => savedValues(integration));
  // As typed; `mapping` is the one the builder shows, which saving stores only while it is current.
  const [form, setForm] = useState(() => ({ ...baseline, samplePayload: draftSample?.text ?? baseline.samplePayload }));
  const { name, active, apiUrl, samplePayload, rateLimit, heartbeat, mapping } = form;
  // The sample payload text the mapping table was parsed from; the saved one is parsed on opening.
  const [parsedText, setParsedText] = useState<string | null>(premium ? (integration?.sample_payload ?? null) : null);
  const { formRef, errors, show: showErrors, clear: changed, clearAll, showApiError } = useFormErrors<DetailsField>();
  const parse = useParsedSamplePayload(project.id, parsedText);
  const activeId = useId();
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

  const values: DetailsValues = { ...form, mapping: savedMapping };
  const dirty = comparable(values, type, premium) !== comparable(baseline, type, premium);
  const guard = useUnsavedChangesGuard(dirty, 'The changes to Configure details');

  /** Sets a value, and clears its error and those of the other fields it changes. */
  const edited =
    <Key extends keyof DetailsValues & DetailsField>(field: Key, ...alsoChanged: DetailsField[]) =>
    (value: DetailsValues[Key]) => {
      setForm((current) => ({ ...current, [field]: value }));
      changed(field, ...alsoChanged);
    };
  const parseSample = () => {
    if (!sampleCheck?.ok) {
      showErrors({ samplePayload: sampleCheck?.message ?? 'Enter a sample payload to parse.' });
      return;
    }
    if (samplePayload !== (integration?.sample_payload ?? null)) setForm((current) => ({ ...current, mapping: [] }));
    if (samplePayload === parsedText) void parse.refetch();
    else setParsedText(samplePayload);
  };

  /** The body to save, or what is wrong with each field. */
  const changes = (): { body: IntegrationChanges } | { errors: FieldErrors } => {
    if (type === 'external_link') {
      if (!/^https?:\/\/\S+$/.test(apiUrl.trim())) return { errors: { apiUrl: 'Enter the API URL of the external tool (http:// or https://).' } };
      return { body: { api_url: apiUrl.trim(), active } };
    }
    const found: FieldErrors = {};
    const limit = checkRateLimit(rateLimit);
    if (!limit.ok) found.rateLimit = limit.message;
    const interval = checkHeartbeatInterval(heartbeat);
    if (!interval.ok) found.heartbeat = interval.message;
    if (premium && name.trim() === '') found.name = 'Enter a name: each HTTP Endpoint of a Premium project is named.';
    if (premium && sampleCheck && !sampleCheck.ok) found.samplePayload = sampleCheck.message;
    if (Object.keys(found).length > 0 || !limit.ok || !interval.ok) return { errors: found };
    const body = { active, rate_limit_per_minute: limit.value, heartbeat_interval_minutes: interval.value };
    if (!premium) return { body };
    const sample = samplePayload.trim() === '' ? null : samplePayload;
    return { body: { name: name.trim(), ...body, sample_payload: sample, payload_field_mapping: savedMapping } };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const result = changes();
    if ('errors' in result) {
      showErrors(result.errors);
      return;
    }
    clearAll();
    onSaving?.();
    const sent = values;
    const onSuccess = (saved: Integration, created: boolean) => {
      setBaseline(sent);
      guard.allowNextNavigation();
      onSaved(saved, created);
    };
    const onError = (error: Error) => showApiError(error, API_ERROR_FIELDS, 'Not saved');
    if (integration) update.mutate({ id: integration.id, changes: result.body }, { onSuccess: (saved) => onSuccess(saved, false), onError });
    else create.mutate({ type, ...result.body }, { onSuccess: (saved) => onSuccess(saved, true), onError });
  };
  // A refusal about one field is shown there; any other under the form.
  const saveErrorAtField = fieldOfApiError(save.error, API_ERROR_FIELDS) !== undefined;

  return (
    <form className="card integration-form" onSubmit={submit} noValidate ref={formRef}>
      <Field label="Integration type" hint={!integration && !premium && FREE_TIER_REASONS.externalLink}>
        {(id, { hintId }) =>
          integration ? (
            <input id={id} value={INTEGRATION_TYPE_LABELS[integration.type]} readOnly />
          ) : (
            <select id={id} value={type} onChange={(event) => onTypeChange(event.target.value as IntegrationType)} aria-describedby={hintId}>
              <option value="http">{INTEGRATION_TYPE_LABELS.http}</option>
              <option value="external_link" disabled={!premium}>
                {INTEGRATION_TYPE_LABELS.external_link}
                {premium ? '' : ' (Premium)'}
              </option>
            </select>
          )
        }
      </Field>

      {type === 'http' && (
        <Field label="Name" error={errors.name} hint={!premium && 'The Free tier has a single HTTP Endpoint and asks no name. Named endpoints need Premium.'}>
          {(id, { errorId, hintId }) => (
            <input
              id={id}
              value={premium ? name : (integration?.name ?? INTEGRATION_TYPE_LABELS.http)}
              onChange={(event) => edited('name')(event.target.value)}
              disabled={!premium}
              required={premium}
              maxLength={255}
              aria-invalid={errors.name !== undefined}
              aria-describedby={premium ? errorId : hintId}
              autoComplete="off"
            />
          )}
        </Field>
      )}

      {type === 'external_link' && (
        <Field
          label="API URL"
          error={errors.apiUrl}
          hint={
            <>
              Base URL of the external tool&apos;s alert list. While this integration is active, no other integration of the project may be
              active. The alert list then shows a &ldquo;View alerts&rdquo; link to it; that direct link is deprecated from release 13.8.
            </>
          }
        >
          {(id, { errorId, hintId }) => (
            <input
              id={id}
              type="url"
              value={apiUrl}
              onChange={(event) => edited('apiUrl')(event.target.value)}
              placeholder="https://incidents.example.com/alerts"
              required
              aria-invalid={errors.apiUrl !== undefined}
              aria-describedby={errorId ? `${errorId} ${hintId}` : hintId}
            />
          )}
        </Field>
      )}

      <div className="field field-switch">
        <input
          id={activeId}
          type="checkbox"
          role="switch"
          checked={active}
          aria-invalid={errors.active !== undefined}
          aria-describedby={errors.active ? `${activeId}-error ${activeId}-hint` : `${activeId}-hint`}
          onChange={(event) => edited('active')(event.target.checked)}
        />
        <label htmlFor={activeId}>Active</label>
        {errors.active && (
          <div className="field-error" id={`${activeId}-error`}>
            {errors.active}
          </div>
        )}
        <div className="hint" id={`${activeId}-hint`}>
          {type === 'http' ? 'Alerts sent to the URL are accepted only while the integration is active.' : 'Shows the link on the alerts list.'}
        </div>
      </div>

      {type === 'http' && (
        <>
          <RateLimitField value={rateLimit} onChange={edited('rateLimit')} error={errors.rateLimit} />
          <HeartbeatField value={heartbeat} onChange={edited('heartbeat')} error={errors.heartbeat} />
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
              onChange={edited('samplePayload', 'mapping')}
              check={(text) => checkJsonText(text, { object: true })}
              error={errors.samplePayload}
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
            {errors.mapping && (
              <div className="field-error" tabIndex={-1} aria-invalid>
                {errors.mapping}
              </div>
            )}
            {premium && parsedText !== null && parsedText !== samplePayload && (
              <div className="notice notice-warning" role="status">
                The sample payload changed: parse it again to redo the mapping. Saving now clears the mapping.
              </div>
            )}
            <div className={showBuilder ? 'mapping-workbench' : undefined}>
              {showBuilder && parse.data && parsedSample && (
                <MappingBuilder
                  fields={parse.data.payload_alert_fields}
                  sample={parsedSample}
                  mapping={mapping}
                  onChange={edited('mapping')}
                />
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
        </>
      )}

      <ErrorMessage error={saveErrorAtField ? null : save.error} title="Not saved" />
      <div className="actions-left">
        {/* Not disabled while saving, so the focus stays on it. */}
        <button type="submit" className="button button-primary" aria-disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save integration'}
        </button>
      </div>
      {guard.dialog}
    </form>
  );
}
