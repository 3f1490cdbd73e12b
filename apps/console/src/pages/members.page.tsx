import { FormEvent, KeyboardEvent, useId, useState } from 'react';
import { useMemberCandidates, useMemberMutations, useMembers } from '@console/api/queries';
import { ACCESS_LEVELS, AccessLevel, Member, MemberCandidate } from '@console/api/types';
import { ApplySelect } from '@console/components/apply-select';
import { ConfirmDialog } from '@console/components/confirm-dialog';
import { useCurrentMessage } from '@console/components/current-message';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage, ErrorNotice } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { ApiErrorFields, useFormErrors } from '@console/components/form-errors';
import { Options } from '@console/components/options';
import { useDebounced } from '@console/lib/use-debounced';
import { usePageTitle } from '@console/lib/use-page-title';
import { can, roleLabel } from '@console/session/roles';
import { useCurrentProject } from './project-layout';

/** Project members (maintainer+ sees them; the owner and the administrator change them). */
export function MembersPage() {
  const project = useCurrentProject();
  usePageTitle('Members', project.path);
  const allowed = can(project, 'listMembers');
  const members = useMembers(project.id, allowed);
  const mutations = useMemberMutations(project.id);
  const manage = can(project, 'manageMembers');
  const [removing, setRemoving] = useState<Member | null>(null);
  const message = useCurrentMessage();
  const [changing, setChanging] = useState<number | null>(null);

  const changeRole = (member: Member, accessLevel: AccessLevel) => {
    setChanging(member.user_id);
    mutations.change.mutate(
      { userId: member.user_id, accessLevel },
      {
        onSuccess: (saved) => message.success(`${saved.username} is now ${roleLabel(saved.access_level).toLowerCase()}.`),
        onError: (error) => message.error(error, `Role of ${member.username} not changed`),
      },
    );
  };

  return (
    <section className="page">
      <h1>Members</h1>
      {!allowed && <ErrorNotice>Members are listed to maintainers and owners of the project.</ErrorNotice>}
      {manage && <AddMember projectId={project.id} onAdded={(member) => message.success(`${member.username} added as ${roleLabel(member.access_level).toLowerCase()}.`)} />}
      {message.view}
      <ErrorMessage error={members.error} />
      <DataTable
        rows={members.data}
        loading={allowed && members.isPending && 'members'}
        empty={<p className="muted">No members yet.</p>}
        columns={['User', 'User ID', 'Role', manage && 'Actions']}
      >
        {(member) => (
          <tr key={member.user_id}>
            <td>{member.username}</td>
            <td>{member.user_id}</td>
            <td>
              {manage ? (
                <ApplySelect
                  label={`Role of ${member.username}`}
                  groupLabel={`Role change of ${member.username}`}
                  values={ACCESS_LEVELS}
                  optionLabel={roleLabel}
                  value={member.access_level}
                  applyLabel="Change role"
                  applyHiddenSuffix={` of ${member.username}`}
                  pending={mutations.change.isPending && changing === member.user_id}
                  error={null}
                  errorTitle="Role not changed"
                  onApply={(accessLevel) => changeRole(member, accessLevel)}
                />
              ) : (
                roleLabel(member.access_level)
              )}
            </td>
            {manage && (
              <td>
                <button type="button" className="button button-small button-danger-outline" onClick={() => setRemoving(member)}>
                  Remove<span className="visually-hidden"> {member.username}</span>
                </button>
              </td>
            )}
          </tr>
        )}
      </DataTable>
      <ConfirmDialog
        open={removing !== null}
        title="Remove member"
        confirmLabel="Remove member"
        danger
        busy={mutations.remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          const { user_id: userId, username } = removing;
          mutations.remove.mutate(userId, {
            onSuccess: () => message.success(`${username} removed from ${project.path}.`),
            onError: (error) => message.error(error, `${username} not removed`),
            onSettled: () => setRemoving(null),
          });
        }}
      >
        <p>
          Remove <strong>{removing?.username}</strong> from {project.path}? They lose access to its alerts and settings.
        </p>
      </ConfirmDialog>
    </section>
  );
}

type AddMemberField = 'username' | 'role';

/** The API's refusals of `POST /projects/:id/members`, at their field (the user is picked by username). */
const ADD_MEMBER_ERRORS: ApiErrorFields<AddMemberField> = {
  fields: { user_id: 'username', access_level: 'role' },
  codes: { user_not_found: 'username', already_member: 'username' },
};

/**
 * Adds a member picked by username, as GitLab's member picker does: typing searches the users who
 * are not members yet; the API takes the picked user's id.
 */
function AddMember({ projectId, onAdded }: { projectId: number; onAdded(member: Member): void }) {
  const { add } = useMemberMutations(projectId);
  const [username, setUsername] = useState('');
  const [picked, setPicked] = useState<MemberCandidate | null>(null);
  const [role, setRole] = useState<AccessLevel>('developer');
  const { formRef, errors, show, clear, clearAll, showApiError } = useFormErrors<AddMemberField>();
  const search = useDebounced(username.trim(), 200);
  const candidates = useMemberCandidates(projectId, search, search !== '');
  const titleId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const typed = username.trim();
    if (typed === '') return show({ username: 'Enter the username of the user to add, and pick them from the list.' });
    const user =
      picked && picked.username === typed ? picked : candidates.data?.find((candidate) => candidate.username.toLowerCase() === typed.toLowerCase());
    if (!user) return show({ username: `No user named "${typed}" can be added: pick a user from the list (members already in the project are not listed).` });
    clearAll();
    add.mutate(
      { user_id: user.id, access_level: role },
      {
        onSuccess: (member) => {
          setUsername('');
          setPicked(null);
          onAdded(member);
        },
        onError: (error) => {
          if (!showApiError(error, ADD_MEMBER_ERRORS, 'Not added')) show({ username: `Not added: ${error.message}` });
        },
      },
    );
  };
  return (
    <form className="card inline-form add-member" onSubmit={submit} noValidate ref={formRef} aria-labelledby={titleId}>
      <h2 id={titleId}>Add a member</h2>
      <Field label="Username" className="field-grow" error={errors.username} hint="Type to search the users who are not members yet.">
        {(id, { errorId, hintId }) => (
          <UsernameCombobox
            id={id}
            value={username}
            candidates={search === '' ? [] : (candidates.data ?? [])}
            searching={candidates.isFetching}
            invalid={errors.username !== undefined}
            describedBy={[errorId, hintId].filter(Boolean).join(' ')}
            onChange={(text) => {
              setUsername(text);
              setPicked(null);
              clear('username');
            }}
            onPick={(candidate) => {
              setUsername(candidate.username);
              setPicked(candidate);
              clear('username');
            }}
          />
        )}
      </Field>
      <Field label="Role" error={errors.role}>
        {(id, { errorId }) => (
          <select
            id={id}
            value={role}
            aria-invalid={errors.role !== undefined}
            aria-describedby={errorId}
            onChange={(event) => {
              setRole(event.target.value as AccessLevel);
              clear('role');
            }}
          >
            <Options values={ACCESS_LEVELS} label={roleLabel} />
          </select>
        )}
      </Field>
      <div className="field-button">
        <button type="submit" className="button button-primary" aria-disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add member'}
        </button>
      </div>
    </form>
  );
}

interface UsernameComboboxProps {
  id: string;
  value: string;
  candidates: readonly MemberCandidate[];
  searching: boolean;
  invalid: boolean;
  describedBy: string;
  onChange(text: string): void;
  onPick(candidate: MemberCandidate): void;
}

/**
 * The ARIA combobox pattern (list autocomplete): the input keeps the focus; ArrowDown/ArrowUp move
 * through the matching usernames (`aria-activedescendant`), Enter picks one, Escape closes the list.
 */
function UsernameCombobox({ id, value, candidates, searching, invalid, describedBy, onChange, onPick }: UsernameComboboxProps) {
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = open && value.trim() !== '';
  const expanded = shown && candidates.length > 0;
  const activeCandidate = expanded && active >= 0 && active < candidates.length ? candidates[active] : null;

  const pick = (candidate: MemberCandidate) => {
    onPick(candidate);
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (candidates.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + candidates.length) % candidates.length);
    } else if (event.key === 'Enter' && activeCandidate) {
      event.preventDefault();
      pick(activeCandidate);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="combobox">
      <input
        id={id}
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={activeCandidate ? `${listId}-${activeCandidate.id}` : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy || undefined}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" aria-label="Users who can be added" className="combobox-list" hidden={!expanded}>
        {expanded &&
          candidates.map((candidate, index) => (
            <li
              key={candidate.id}
              id={`${listId}-${candidate.id}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'active' : undefined}
              // Before the input's blur, so the click picks.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(candidate);
              }}
            >
              {candidate.username}
            </li>
          ))}
      </ul>
      <span role="status" className="visually-hidden">
        {shown && !searching ? (candidates.length === 0 ? 'No user who can be added matches.' : `${candidates.length} users match.`) : ''}
      </span>
    </div>
  );
}
