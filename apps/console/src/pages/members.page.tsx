import { FormEvent, useState } from 'react';
import { useMemberMutations, useMembers } from '../api/queries';
import { ACCESS_LEVELS, AccessLevel, Member } from '../api/types';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { Field } from '../components/field';
import { ErrorMessage, ErrorNotice } from '../components/error-message';
import { usePageTitle } from '../lib/use-page-title';
import { can, roleLabel } from '../session/roles';
import { useCurrentProject } from './project-layout';
import { HiddenLabelSelect, Options } from '../components/options';

/** Project members (maintainer+ sees them; the owner and the administrator change them). */
export function MembersPage() {
  const project = useCurrentProject();
  usePageTitle('Members', project.path);
  const allowed = can(project, 'listMembers');
  const members = useMembers(project.id, allowed);
  const mutations = useMemberMutations(project.id);
  const manage = can(project, 'manageMembers');
  const [removing, setRemoving] = useState<Member | null>(null);

  return (
    <section className="page">
      <h1>Members</h1>
      {!allowed && <ErrorNotice>Members are listed to maintainers and owners of the project.</ErrorNotice>}
      {manage && <AddMember projectId={project.id} />}
      <ErrorMessage error={members.error} />
      <ErrorMessage error={mutations.change.error ?? mutations.remove.error} />
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
                <HiddenLabelSelect
                  label={`Role of ${member.username}`}
                  values={ACCESS_LEVELS}
                  optionLabel={roleLabel}
                  value={member.access_level}
                  disabled={mutations.change.isPending}
                  onChange={(accessLevel) => mutations.change.mutate({ userId: member.user_id, accessLevel })}
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
        onConfirm={() => removing && mutations.remove.mutate(removing.user_id, { onSettled: () => setRemoving(null) })}
      >
        <p>
          Remove <strong>{removing?.username}</strong> from {project.path}? They lose access to its alerts and settings.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function AddMember({ projectId }: { projectId: number }) {
  const { add } = useMemberMutations(projectId);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<AccessLevel>('developer');
  const valid = /^[1-9][0-9]*$/.test(userId.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ user_id: Number(userId.trim()), access_level: role }, { onSuccess: () => setUserId('') });
  };
  return (
    <form className="card inline-form" onSubmit={submit}>
      <h2>Add a member</h2>
      <Field label="User ID" hint="Shown to the administrator when the user is created.">
        {(id, { hintId }) => <input id={id} inputMode="numeric" value={userId} onChange={(event) => setUserId(event.target.value)} aria-describedby={hintId} />}
      </Field>
      <Field label="Role">
        {(id) => (
          <select id={id} value={role} onChange={(event) => setRole(event.target.value as AccessLevel)}>
            <Options values={ACCESS_LEVELS} label={roleLabel} />
          </select>
        )}
      </Field>
      <button type="submit" className="button button-primary" disabled={!valid || add.isPending}>
        Add member
      </button>
      <ErrorMessage error={add.error} />
    </form>
  );
}
