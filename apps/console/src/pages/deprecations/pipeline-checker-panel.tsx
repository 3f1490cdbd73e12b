import { ChangeEvent, FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { usePipelineCheck } from '@console/api/queries';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage, ErrorNotice } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { entryLink, MILESTONE } from './deprecation-labels';

const EXAMPLE = `types:
  - build
  - test

build:
  type: build
  script:
    - echo "building $CI_BUILD_REF_NAME at $CI_BUILD_REF"

coverage:
  stage: test
  script: make coverage
  artifacts:
    reports:
      cobertura: coverage.xml
`;

/** The pipeline checker (POST /deprecations/check): findings by line, each linked to its catalogue entry. */
export function PipelineCheckerPanel() {
  const check = usePipelineCheck();
  const [content, setContent] = useState('');
  const [target, setTarget] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // What the findings shown are of.
  const checked = check.isSuccess ? check.variables : null;
  const editor = useRef<HTMLTextAreaElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (content.trim() === '') {
      setProblem('Paste a pipeline configuration (YAML) or upload a file.');
      return;
    }
    if (target.trim() !== '' && !MILESTONE.test(target.trim())) {
      setProblem('Give the target release as MAJOR.MINOR, for example 16.0, or leave it empty.');
      return;
    }
    setProblem(null);
    check.mutate({ content, target: target.trim() });
  };

  /** New content (a file, the example): the findings of the old one no longer apply. */
  const load = (text: string) => {
    setContent(text);
    check.reset();
  };
  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) load(await file.text());
  };

  const lines = checked?.content.split('\n') ?? [];
  const showLine = (line: number) => {
    const textarea = editor.current;
    if (!textarea || checked === null || textarea.value !== checked.content) return;
    // The line's offsets in the checked text (the textarea's): past its last line, the text's end.
    const start = Math.min(checked.content.length, lines.slice(0, line - 1).reduce((offset, before) => offset + before.length + 1, 0));
    textarea.focus();
    textarea.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
    const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
    textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
  };

  const findings = check.data?.findings ?? [];
  return (
    <form onSubmit={submit}>
      <Field label="Pipeline configuration (.gitlab-ci.yml)">
        {(id) => <textarea id={id} ref={editor} className="code" rows={16} spellCheck={false} value={content} onChange={(event) => setContent(event.target.value)} />}
      </Field>
      <div className="filters">
        <Field label="Or upload a file">{(id) => <input id={id} type="file" accept=".yml,.yaml,text/yaml,application/x-yaml" onChange={upload} />}</Field>
        <Field label="Target release (optional)" hint="Only what is removed or changed by this release. Empty: everything scheduled.">
          {(id, { hintId }) => (
            <input id={id} value={target} onChange={(event) => setTarget(event.target.value)} placeholder="16.0" inputMode="decimal" aria-describedby={hintId} />
          )}
        </Field>
        <div className="field field-button">
          <button type="submit" className="button button-primary" disabled={check.isPending}>
            {check.isPending ? 'Checking…' : 'Check'}
          </button>
          <button type="button" className="button" onClick={() => load(EXAMPLE)}>
            Load an example
          </button>
        </div>
      </div>
      {problem && <ErrorNotice>{problem}</ErrorNotice>}
      <ErrorMessage error={check.error} title="Not checked" />
      {check.data && checked && (
        <div className="card">
          <h2>Findings</h2>
          <p role="status">
            {findings.length === 0
              ? `Nothing deprecated found${checked.target ? ` for release ${checked.target}` : ''}.`
              : `${findings.length} ${findings.length === 1 ? 'finding' : 'findings'}${checked.target ? ` removed or changed by ${checked.target}` : ''}.`}
          </p>
          <DataTable rows={findings} columns={['Line', 'Finding', 'Removal', 'Replacement', 'Catalogue']} className="findings" scroll>
            {(finding, index) => (
              <tr key={`${finding.line}:${finding.rule}:${index}`}>
                <td>
                  <button type="button" className="link-button" onClick={() => showLine(finding.line)} aria-label={`Show line ${finding.line}`}>
                    {finding.line}
                  </button>
                </td>
                <td>
                  <div>{finding.message}</div>
                  {lines[finding.line - 1] !== undefined && <code className="line-excerpt">{lines[finding.line - 1].trim()}</code>}
                </td>
                <td>{finding.removal_milestone}</td>
                <td>{finding.replacement ? <code>{finding.replacement}</code> : <span className="muted">none</span>}</td>
                <td>
                  <Link to={entryLink(finding.deprecation_id)}>
                    Entry<span className="visually-hidden"> for line {finding.line}</span>
                  </Link>
                </td>
              </tr>
            )}
          </DataTable>
        </div>
      )}
    </form>
  );
}
