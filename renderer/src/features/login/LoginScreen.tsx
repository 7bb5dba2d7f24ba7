/** The sign-in screen: server URL, email, password; the demo accounts when the server has them. */
import { type FormEvent, type InputHTMLAttributes, useId, useState } from 'react';
import type { DemoLogin } from '../../../../shared/ipc';
import { useAppInfo, useSignIn } from '../../queries/accounts';
import { normalizeServerUrl } from './serverUrl';

export function LoginScreen({ onCancel, onSignedIn }: { onCancel?: () => void; onSignedIn?: () => void }) {
  const info = useAppInfo();
  const signIn = useSignIn();
  const titleId = useId();
  // null until the user edits it: until then the field shows the app's default server.
  const [serverUrl, setServerUrl] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);

  const shownServerUrl = serverUrl ?? info.data?.defaultServerUrl ?? '';
  const demoLogins = info.data?.demoLogins ?? [];
  const busy = signIn.isPending;

  const submit = (credentials: { email: string; password: string }) => {
    const url = normalizeServerUrl(shownServerUrl);
    if (!url) {
      setFormError('Enter the server’s address, for example https://chat.example.com');
      return;
    }
    if (!credentials.email || !credentials.password) {
      setFormError('Enter your email and password.');
      return;
    }
    setFormError(null);
    signIn.mutate({ serverUrl: url, ...credentials }, { onSuccess: () => onSignedIn?.() });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit({ email: email.trim(), password });
  };

  const signInAsDemo = (login: DemoLogin) => {
    setEmail(login.email);
    setPassword(login.password);
    submit({ email: login.email, password: login.password });
  };

  const error = formError ?? signIn.error?.message ?? null;

  return (
    <main className="login">
      <div className="login-card">
        <p className="brand" aria-hidden="true">
          Confab
        </p>
        <h1 id={titleId}>Sign in</h1>
        <form className="stack" aria-labelledby={titleId} onSubmit={onSubmit} noValidate>
          <TextField
            label="Server URL"
            name="server"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="https://chat.example.com"
            value={shownServerUrl}
            onText={setServerUrl}
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            spellCheck={false}
            value={email}
            onText={setEmail}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onText={setPassword}
          />
          {error && (
            <p role="alert" className="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Signing in…' : 'Sign in'}
            </button>
            {onCancel && (
              <button type="button" onClick={onCancel} disabled={busy}>
                Cancel
              </button>
            )}
          </div>
        </form>
        {demoLogins.length > 0 && (
          <fieldset className="demo">
            <legend>Demo accounts</legend>
            <p className="hint">This app runs a demo organization. Sign in as one of its people:</p>
            <ul className="demo-list">
              {demoLogins.map((login) => (
                <li key={login.email}>
                  <button
                    type="button"
                    title={login.email}
                    disabled={busy}
                    onClick={() => signInAsDemo(login)}
                  >
                    Sign in as {login.role}
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        {info.data && !info.data.secretStorageEncrypted && (
          <p className="hint">
            This app keeps your sign-in in its profile folder without the operating system’s encryption.
          </p>
        )}
      </div>
    </main>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'> & {
  label: string;
  value: string;
  onText: (value: string) => void;
};

/** A required text input with its label; `type` is text unless given. */
function TextField({ label, onText, type = 'text', ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} required onChange={(e) => onText(e.target.value)} {...input} />
    </div>
  );
}
