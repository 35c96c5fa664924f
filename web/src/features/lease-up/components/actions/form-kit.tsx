import type { ReactNode } from 'react';
import type { ApplicationDetail } from '../../../../lib/domain';
import type { ActionPayload } from '../../api/run-action';

/** What every action form gets: the application, an id prefix for its labels, and where a drawn signature goes. */
export interface ActionFieldsProps {
  application: ApplicationDetail;
  id: string;
  onSignature: (png: string | null) => void;
}

/** One action's form: its inputs, and how they are read into the payload its endpoint takes (null: something is missing). */
export interface ActionForm {
  Fields: (props: ActionFieldsProps) => ReactNode;
  read: (form: FormReader, application: ApplicationDetail, signature: string | null) => ActionPayload | null;
}

/** The submitted form's values, trimmed. */
export interface FormReader {
  text(name: string): string;
  lines(name: string): string[];
  all(name: string): string[];
}

export function formReader(form: FormData): FormReader {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  return {
    text,
    lines: (name) => text(name).split('\n').map((l) => l.trim()).filter(Boolean),
    all: (name) => form.getAll(name).map(String),
  };
}

/** A labelled input. */
export function Field({ id, name, label, children }: { id: string; name: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {children}
    </div>
  );
}

/** The end of a date, as the API takes it (23:59 local time). */
export const endOfDay = (date: string) => new Date(`${date}T23:59:00`).toISOString();

/** The next person to sign the TIC (head of household first, then each adult member), if it names them. */
export function nextTicSigner(application: ApplicationDetail) {
  return application.tic?.signers?.find((s) => !application.tic!.signatures.some((g) => g.userId === s.id));
}
