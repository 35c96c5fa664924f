import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFailureText } from './failure-text';
import type { MemberView } from '../../../lib/domain';
import { householdCalls, useHouseholdMutation } from '../api/profile';
import { ConfirmDialog } from './confirm-dialog';
import { Section } from './fields';
import { MemberForm } from './member-form';

/** Members: add, edit, delete (after confirmation). Identifiers only ever show their last 4 digits. */
export function MembersSection({ members }: { members: MemberView[] }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const [editing, setEditing] = useState<MemberView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MemberView | null>(null);
  const remove = useHouseholdMutation(householdCalls.deleteMember);
  const failureText = useFailureText();
  return (
    <Section title={t('profile:members.title')}>
      <ul className="card-list">
        {members.map((m) => (
          <li key={m.id} className="card">
            <h3 className="card-title">{m.fullName}</h3>
            <p>{t(`lookups:relationship.${m.relationship}` as never)} · {t('profile:members.age', { age: m.age })}{m.headOfHousehold ? ` · ${t('profile:member.headOfHousehold')}` : ''}</p>
            <div className="action-buttons">
              <button type="button" className="button button-secondary" onClick={() => setEditing(m)}>{t('profile:form.edit')}</button>
              <button type="button" className="button button-secondary" onClick={() => setDeleting(m)}>{t('profile:form.delete')}</button>
            </div>
          </li>
        ))}
      </ul>
      {remove.error ? <p className="form-error" role="alert">{failureText(remove.error, 'memberDelete')}</p> : null}
      {editing ? (
        <MemberForm key={editing === 'new' ? 'new' : editing.id} member={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>{t('profile:members.add')}</button>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('profile:members.deleteTitle')}
        body={t('profile:members.deleteBody', { name: deleting?.fullName ?? '' })}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
          setDeleting(null);
        }}
      />
    </Section>
  );
}
