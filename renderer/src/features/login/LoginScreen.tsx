import { type FormEvent, useId, useState } from 'react';
import type { DemoLogin } from '../../../../shared/ipc';
import { useAppInfo, useSignIn } from '../../queries/app';
import { normalizeServerUrl } from './serverUrl';

/** The sign-in screen: server URL, email, password; the demo accounts when the server has them. */
export function LoginScreen({ onCancel, onSignedIn }: { onCancel?: () => void; onSignedIn?: () => void }) {
  const info = useAppInfo();
  const signIn = useSignIn();
  const ids = { title: useId(), server: useId(), email: useId(), password: useId() };
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
        <h1 id={ids.title}>Sign in</h1>
        <form className="stack" aria-labelledby={ids.title} onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={ids.server}>Server URL</label>
            <input
              id={ids.server}
              name="server"
              type="text"
              inputMode="url"
              autoComplete="url"
              spellCheck={false}
              required
              placeholder="https://chat.example.com"
              value={shownServerUrl}
              onChange={(e) => setServerUrl(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.email}>Email</label>
            <input
              id={ids.email}
              name="email"
              type="email"
              autoComplete="username"
              spellCheck={false}
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.password}>Password</label>
            <input
              id={ids.password}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
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
