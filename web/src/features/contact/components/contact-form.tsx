import { CONTACT_SUCCESS_DELAY_MS } from '@tunesmith/shared/constants';
import { type ContactInput, contactSchema } from '@tunesmith/shared/contact';
import { messages } from '@tunesmith/shared/messages';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';

type Field = keyof ContactInput;
type Errors = Partial<Record<Field, string>>;

const emptyForm: ContactInput = { name: '', email: '', subject: '', message: '' };
const fieldOrder: Field[] = ['name', 'email', 'subject', 'message'];

/**
 * The contact form. Messages are not sent anywhere yet: after validation it
 * waits {@link CONTACT_SUCCESS_DELAY_MS} and confirms, as the spec describes.
 */
export function ContactForm() {
  const [values, setValues] = useState<ContactInput>(emptyForm);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const update = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = contactSchema.safeParse(values);
    if (!result.success) {
      const next: Errors = {};
      for (const issue of result.error.issues) {
        const field = issue.path[0] as Field;
        next[field] ??= issue.message;
      }
      setErrors(next);
      const first = fieldOrder.find((field) => next[field]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    setPending(true);
    timer.current = window.setTimeout(() => {
      setPending(false);
      setValues(emptyForm);
      toast({ title: messages.contact.sent });
    }, CONTACT_SUCCESS_DELAY_MS);
  };

  const fieldProps = (field: Field) => ({
    id: `${id}-${field}`,
    name: field,
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}-error` : undefined,
    onChange: (event: { target: { value: string } }) => update(field, event.target.value),
  });

  const errorText = (field: Field) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="text-sm text-red-300">
        {errors[field]}
      </p>
    ) : null;

  return (
    <form ref={formRef} noValidate onSubmit={submit} aria-label="Contact form" className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input {...fieldProps('name')} autoComplete="name" placeholder="Your name" />
          {errorText('name')}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input {...fieldProps('email')} type="email" autoComplete="email" placeholder="you@example.com" />
          {errorText('email')}
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-subject`}>Subject</Label>
        <Input {...fieldProps('subject')} placeholder="How can we help?" />
        {errorText('subject')}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-message`}>Message</Label>
        <Textarea {...fieldProps('message')} rows={6} placeholder="Tell us more" />
        {errorText('message')}
      </div>
      <Button type="submit" size="lg" disabled={pending} className="justify-self-start">
        {pending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
