import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { LANGUAGE_NAMES } from '../../../i18n';
import { FAQ_LANGUAGES, FAQ_MESSAGES, FaqCategoryBody, FaqQuestionBody, type FaqCategory, type FaqLanguage, type FaqQuestion, type FaqText } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useFaqAdmin, useFaqChange, type FaqChange } from '../api/faq-admin';

const emptyText = (): FaqText => ({ en: '', es: '', zh: '', bn: '' });

type Editing =
  | { kind: 'category'; category: FaqCategory | null }
  | { kind: 'question'; categoryId: string; question: FaqQuestion | null }
  | { kind: 'delete'; change: Extract<FaqChange, { kind: 'deleteCategory' | 'deleteQuestion' }>; name: string };

/**
 * /admin/faq: the help page's categories and questions, each text in the four
 * languages of the portal; admins add, edit and delete them (the API's admin routes). Every control
 * is a button, a field or a dialog: usable by keyboard alone.
 */
export function AdminFaqRoute() {
  const { t, i18n } = useTranslation('support');
  usePageTitle(t('faqAdmin.title'));
  const errorText = useErrorText();
  const faq = useFaqAdmin();
  const [editing, setEditing] = useState<Editing | null>(null);
  const lang = (FAQ_LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as FaqLanguage) : 'en';
  const close = () => setEditing(null);

  return (
    <div className="page">
      <h1>{t('faqAdmin.title')}</h1>
      <p>{t('faqAdmin.intro')}</p>
      <p>
        <button type="button" className="button button-primary" onClick={() => setEditing({ kind: 'category', category: null })}>
          {t('faqAdmin.addCategory')}
        </button>
      </p>
      {faq.isPending ? (
        <Loading />
      ) : faq.isError ? (
        <LoadError title={t('faqAdmin.loadError')} detail={errorText(faq.error)} onRetry={() => void faq.refetch()} />
      ) : faq.data.length === 0 ? (
        <p>{t('faqAdmin.empty')}</p>
      ) : (
        faq.data.map((c) => (
          <section key={c.id} className="panel" aria-labelledby={`faq-category-${c.id}`}>
            <h2 id={`faq-category-${c.id}`}>{c.name[lang]}</h2>
            <p className="field-hint">{t('faqAdmin.categoryFacts', { slug: c.slug, position: c.position, count: c.questions.length })}</p>
            <p className="button-row">
              <button type="button" className="button button-secondary" aria-label={t('faqAdmin.editCategoryNamed', { name: c.name[lang] })} onClick={() => setEditing({ kind: 'category', category: c })}>
                {t('faqAdmin.editCategory')}
              </button>{' '}
              <button type="button" className="button button-secondary" aria-label={t('faqAdmin.addQuestionTo', { name: c.name[lang] })} onClick={() => setEditing({ kind: 'question', categoryId: c.id, question: null })}>
                {t('faqAdmin.addQuestion')}
              </button>{' '}
              <button type="button" className="button button-secondary" aria-label={t('faqAdmin.deleteCategoryNamed', { name: c.name[lang] })} onClick={() => setEditing({ kind: 'delete', change: { kind: 'deleteCategory', id: c.id }, name: c.name[lang] })}>
                {t('faqAdmin.deleteCategory')}
              </button>
            </p>
            {c.questions.length ? (
              <ol className="faq-admin-questions" aria-label={t('faqAdmin.questionsOf', { name: c.name[lang] })}>
                {c.questions.map((q) => (
                  <li key={q.id}>
                    <span>{q.question[lang]}</span>{' '}
                    <button type="button" className="button button-link" aria-label={t('faqAdmin.editQuestionNamed', { question: q.question[lang] })} onClick={() => setEditing({ kind: 'question', categoryId: c.id, question: q })}>
                      {t('faqAdmin.edit')}
                    </button>{' '}
                    <button type="button" className="button button-link" aria-label={t('faqAdmin.deleteQuestionNamed', { question: q.question[lang] })} onClick={() => setEditing({ kind: 'delete', change: { kind: 'deleteQuestion', id: q.id }, name: q.question[lang] })}>
                      {t('faqAdmin.delete')}
                    </button>
                  </li>
                ))}
              </ol>
            ) : (
              <p>{t('faqAdmin.noQuestions')}</p>
            )}
          </section>
        ))
      )}
      <CategoryDialog open={editing?.kind === 'category'} category={editing?.kind === 'category' ? editing.category : null} nextPosition={(faq.data?.length ?? 0) * 10 + 10} onClose={close} />
      <QuestionDialog
        open={editing?.kind === 'question'}
        categoryId={editing?.kind === 'question' ? editing.categoryId : ''}
        question={editing?.kind === 'question' ? editing.question : null}
        nextPosition={editing?.kind === 'question' ? ((faq.data?.find((c) => c.id === editing.categoryId)?.questions.length ?? 0) * 10 + 10) : 10}
        onClose={close}
      />
      <DeleteDialog editing={editing?.kind === 'delete' ? editing : null} onClose={close} />
    </div>
  );
}

/** A rule of the shared schemas as a sentence in the reader's language. */
function useFaqErrorText(): (message: string) => string {
  const { t } = useTranslation('support');
  return (message) =>
    message === FAQ_MESSAGES.textRequired ? t('faqAdmin.errors.textRequired')
    : message === FAQ_MESSAGES.textTooLong ? t('faqAdmin.errors.textTooLong')
    : message === FAQ_MESSAGES.slug ? t('faqAdmin.errors.slug')
    : t('faqAdmin.errors.position');
}

/** Issues by field, e.g. `name.es`, `slug`, `position`. */
const issuesByField = (issues: { path: PropertyKey[]; message: string }[]) => Object.fromEntries(issues.map((i) => [i.path.map(String).join('.'), i.message]));

/** One text in the four languages: a labelled field each, marked with its language. */
function FourLanguages({ field, label, value, multiline, errors, onChange }: { field: string; label: string; value: FaqText; multiline?: boolean; errors: Record<string, string>; onChange: (v: FaqText) => void }) {
  const prefix = useId();
  const errorText = useFaqErrorText();
  return (
    <fieldset className="field-group">
      <legend>{label}</legend>
      {FAQ_LANGUAGES.map((lang) => {
        const id = `${prefix}-${lang}`;
        const error = errors[`${field}.${lang}`] ?? (lang === 'en' ? errors[field] : undefined);
        const props = {
          id,
          lang,
          value: value[lang],
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
          onChange: (e: { target: { value: string } }) => onChange({ ...value, [lang]: e.target.value }),
        };
        return (
          <div className="field" key={lang}>
            <label htmlFor={id}>{`${label} (${LANGUAGE_NAMES[lang]})`}</label>
            {multiline ? <textarea rows={4} {...props} /> : <input type="text" {...props} />}
            {error ? (
              <p id={`${id}-error`} className="field-error">
                {errorText(error)}
              </p>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}

function CategoryDialog({ open, category, nextPosition, onClose }: { open: boolean; category: FaqCategory | null; nextPosition: number; onClose: () => void }) {
  const { t } = useTranslation('support');
  const change = useFaqChange();
  const toast = useToast();
  const apiErrorText = useErrorText();
  const errorText = useFaqErrorText();
  const prefix = useId();
  const [slug, setSlug] = useState('');
  const [position, setPosition] = useState('');
  const [name, setName] = useState<FaqText>(emptyText());
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!open) return;
    setErrors({});
    setSlug(category?.slug ?? '');
    setPosition(String(category?.position ?? nextPosition));
    setName(category ? { ...category.name } : emptyText());
  }, [open, category]);

  function submit() {
    const parsed = FaqCategoryBody.safeParse({ slug, position: position.trim() === '' ? undefined : Number(position), name });
    if (!parsed.success) return setErrors(issuesByField(parsed.error.issues));
    change.mutate(
      { kind: 'saveCategory', id: category?.id ?? null, body: parsed.data },
      { onSuccess: () => { toast.showSuccess(t('faqAdmin.saved')); onClose(); }, onError: (e) => toast.showError(apiErrorText(e)) },
    );
  }
  const fieldError = (f: string) => (errors[f] ? <p id={`${prefix}-${f}-error`} className="field-error">{errorText(errors[f])}</p> : null);
  return (
    <Dialog open={open} title={category ? t('faqAdmin.editCategory') : t('faqAdmin.addCategory')} onClose={onClose}>
      <form className="form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <div className="field">
          <label htmlFor={`${prefix}-slug`}>{t('faqAdmin.slug')}</label>
          <input id={`${prefix}-slug`} value={slug} maxLength={60} aria-invalid={errors.slug ? true : undefined} aria-describedby={errors.slug ? `${prefix}-slug-error` : `${prefix}-slug-hint`} onChange={(e) => setSlug(e.target.value)} />
          <p id={`${prefix}-slug-hint`} className="field-hint">{t('faqAdmin.slugHint')}</p>
          {fieldError('slug')}
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-position`}>{t('faqAdmin.position')}</label>
          <input id={`${prefix}-position`} type="number" min={0} max={10000} value={position} aria-invalid={errors.position ? true : undefined} aria-describedby={errors.position ? `${prefix}-position-error` : undefined} onChange={(e) => setPosition(e.target.value)} />
          {fieldError('position')}
        </div>
        <FourLanguages field="name" label={t('faqAdmin.name')} value={name} errors={errors} onChange={setName} />
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>{t('faqAdmin.cancel')}</button>
          <button type="submit" className="button button-primary" disabled={change.isPending}>{t('faqAdmin.save')}</button>
        </div>
      </form>
    </Dialog>
  );
}

function QuestionDialog({ open, categoryId, question, nextPosition, onClose }: { open: boolean; categoryId: string; question: FaqQuestion | null; nextPosition: number; onClose: () => void }) {
  const { t } = useTranslation('support');
  const change = useFaqChange();
  const toast = useToast();
  const apiErrorText = useErrorText();
  const errorText = useFaqErrorText();
  const prefix = useId();
  const [position, setPosition] = useState('');
  const [text, setText] = useState<{ question: FaqText; answer: FaqText }>({ question: emptyText(), answer: emptyText() });
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!open) return;
    setErrors({});
    setPosition(String(question?.position ?? nextPosition));
    setText(question ? { question: { ...question.question }, answer: { ...question.answer } } : { question: emptyText(), answer: emptyText() });
  }, [open, question]);

  function submit() {
    const parsed = FaqQuestionBody.safeParse({ position: position.trim() === '' ? undefined : Number(position), ...text });
    if (!parsed.success) return setErrors(issuesByField(parsed.error.issues));
    change.mutate(
      { kind: 'saveQuestion', categoryId, id: question?.id ?? null, body: parsed.data },
      { onSuccess: () => { toast.showSuccess(t('faqAdmin.saved')); onClose(); }, onError: (e) => toast.showError(apiErrorText(e)) },
    );
  }
  return (
    <Dialog open={open} title={question ? t('faqAdmin.editQuestion') : t('faqAdmin.addQuestion')} onClose={onClose}>
      <form className="form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <div className="field">
          <label htmlFor={`${prefix}-position`}>{t('faqAdmin.position')}</label>
          <input id={`${prefix}-position`} type="number" min={0} max={10000} value={position} aria-invalid={errors.position ? true : undefined} aria-describedby={errors.position ? `${prefix}-position-error` : undefined} onChange={(e) => setPosition(e.target.value)} />
          {errors.position ? <p id={`${prefix}-position-error`} className="field-error">{errorText(errors.position)}</p> : null}
        </div>
        <FourLanguages field="question" label={t('faqAdmin.question')} value={text.question} errors={errors} onChange={(question) => setText({ ...text, question })} />
        <FourLanguages field="answer" label={t('faqAdmin.answer')} value={text.answer} multiline errors={errors} onChange={(answer) => setText({ ...text, answer })} />
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>{t('faqAdmin.cancel')}</button>
          <button type="submit" className="button button-primary" disabled={change.isPending}>{t('faqAdmin.save')}</button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ editing, onClose }: { editing: Extract<Editing, { kind: 'delete' }> | null; onClose: () => void }) {
  const { t } = useTranslation('support');
  const change = useFaqChange();
  const toast = useToast();
  const errorText = useErrorText();
  return (
    <Dialog open={editing !== null} title={t('faqAdmin.confirmDeleteTitle')} onClose={onClose}>
      <p>{editing?.change.kind === 'deleteCategory' ? t('faqAdmin.confirmDeleteCategory', { name: editing.name }) : t('faqAdmin.confirmDeleteQuestion', { name: editing?.name ?? '' })}</p>
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>{t('faqAdmin.cancel')}</button>
        <button
          type="button"
          className="button button-danger"
          disabled={change.isPending}
          onClick={() => editing && change.mutate(editing.change, { onSuccess: () => { toast.showSuccess(t('faqAdmin.deleted')); onClose(); }, onError: (e) => toast.showError(errorText(e)) })}
        >
          {t('faqAdmin.delete')}
        </button>
      </div>
    </Dialog>
  );
}
