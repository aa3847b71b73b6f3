import { type FormEvent, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { MESSAGES } from '#src/config/messages.ts';
import { toast } from '#src/lib/toast.ts';
import type { SubmitResult } from '#src/lib/forms/send-form.ts';
import { isHoneypotFilled } from './honeypot-field.tsx';
// Only the address: what a form shows once used stays out of its page's first window (docs/speed.md).
import statesStylesheetUrl from '#src/styles/form-states.css?url';
import { whenIdleAfterLoad } from '#src/lib/when-idle-after-load.ts';

function linkStatesStylesheet(): void {
  if (document.querySelector(`link[href="${statesStylesheetUrl}"]`)) return;
  document.head.append(
    Object.assign(document.createElement('link'), { rel: 'stylesheet', href: statesStylesheetUrl }),
  );
}

export type FormSubmitStatus = 'idle' | 'submitting' | 'done';

export type FormSubmitOptions = {
  /** The form's honeypot field: filled, nothing is sent, but it looks like success. */
  honeypot: string;
  /** Checks the fields (showing and focusing what is wrong); false stops the submit. */
  validate: () => boolean;
  /** Sends the fields the native post would; a replacement in tests may throw. */
  send: () => Promise<SubmitResult>;
  onDone: () => void;
  /** For the console, when sending throws. */
  failureLog: string;
};

/**
 * The enhanced submit of a form: idle → submitting → done, or back to idle with an error toast,
 * every value kept and focus back on the submit button. A double click or Enter pressed twice
 * sends once: a ref flips synchronously, before React re-renders the button as disabled.
 */
export function useFormSubmit({ honeypot, validate, send, onDone, failureLog }: FormSubmitOptions) {
  const [status, setStatus] = useState<FormSubmitStatus>('idle');
  // Linked once per page, idle after a form mounts: long before its first error or send.
  useEffect(() => whenIdleAfterLoad(linkStatesStylesheet), []);
  const inFlight = useRef(false);

  const done = () => {
    setStatus('done');
    onDone();
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status !== 'idle' || inFlight.current || !validate()) return;
    const form = event.currentTarget;
    if (isHoneypotFilled(form, honeypot)) {
      done();
      return;
    }
    inFlight.current = true;
    setStatus('submitting');
    let result: SubmitResult = { success: false };
    try {
      result = await send();
    } catch (error) {
      console.error(failureLog, error);
    }
    inFlight.current = false;
    if (result.success) {
      done();
      return;
    }
    // The button was disabled while sending, which drops focus; give it back to keyboard users,
    // once it is enabled again (a disabled button cannot take focus).
    flushSync(() => setStatus('idle'));
    form.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    toast.error(MESSAGES.genericFailureToast);
  };

  return { status, handleSubmit: (event: FormEvent<HTMLFormElement>) => void handleSubmit(event) };
}
