/**
 * Hands outbox messages to an SMTP relay with nodemailer's SMTP client (SMTPConnection, the
 * connection its SMTP transport is built on), a well-kept implementation rather than one of
 * our own. `smtp://host:port` upgrades with STARTTLS whenever the relay offers it, and insists
 * on it when the URL carries credentials, so AUTH is never sent in clear; `smtps://` is TLS
 * from the first byte. The message goes as written to the outbox, so the relay gets the very
 * text an operator reads there; nodemailer's data stream escapes lines that start with a dot
 * and sends every line end as CRLF. The connection is used directly rather than through
 * createTransport because the transport hangs up without QUIT, and a relay should hear one.
 * No retries: the outbox file stays the record of every message, relayed or not.
 */
import { hostname } from 'node:os';
import SMTPConnection, {
  type SMTPConnectionAuth,
  type SMTPConnectionOptions,
  type SMTPEnvelope,
} from 'nodemailer/lib/smtp-connection';

/** Connecting, the greeting, and every wait for the relay. */
const TIMEOUT_MS = 30_000;

export interface SmtpRelay {
  options: SMTPConnectionOptions;
  /** The URL's user and password; undefined without a user name. */
  auth: SMTPConnectionAuth | undefined;
}

/** nodemailer's connection options for an `smtp://` or `smtps://` URL with optional `user:password@`. */
export function smtpRelay(url: string): SmtpRelay {
  const target = new URL(url);
  const secure = target.protocol === 'smtps:';
  if (!secure && target.protocol !== 'smtp:') {
    throw new Error(`Unsupported SMTP URL scheme ${target.protocol}`);
  }
  const user = decodeURIComponent(target.username);
  return {
    options: {
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: Number(target.port || (secure ? 465 : 25)),
      secure,
      requireTLS: !secure && user !== '',
      name: hostname() || 'localhost',
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    },
    auth: user === '' ? undefined : { user, pass: decodeURIComponent(target.password) },
  };
}

/** Whether the message holds bytes beyond 7-bit ASCII (its body is 8bit text). */
const hasEightBitText = (message: string) => /\P{ASCII}/u.test(message);

/** One step of the conversation as a promise; the connection's own errors reject it too. */
function step(
  connection: SMTPConnection,
  run: (done: (error?: Error | null) => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    connection.once('error', fail);
    run((error) => {
      connection.removeListener('error', fail);
      if (error) reject(error);
      else resolve();
    });
  });
}

/**
 * Sends one RFC 5322 message (CRLF line ends) from `from` to `to`. Resolves once the relay
 * took it and the session has ended; rejects when the relay refuses it or cannot be reached.
 */
export async function sendSmtp(url: string, from: string, to: string, message: string): Promise<void> {
  const relay = smtpRelay(url);
  const connection = new SMTPConnection(relay.options);
  // An error after the last step (the relay hanging up rudely) must not crash the service.
  connection.on('error', () => {});
  try {
    await step(connection, (done) => connection.connect(done));
    // As nodemailer's transport does: credentials are offered where the relay takes AUTH.
    const { auth } = relay;
    if (auth && connection.allowsAuth) await step(connection, (done) => connection.login(auth, done));
    // BODY=8BITMIME only where it is needed, and only if the relay announced it.
    const envelope: SMTPEnvelope = { from, to, use8BitMime: hasEightBitText(message) };
    await step(connection, (done) => connection.send(envelope, message, done));
    // Done once the relay has answered QUIT and the connection is closed.
    await new Promise<void>((resolve) => {
      connection.once('end', resolve);
      connection.quit();
    });
  } catch (error) {
    connection.close();
    throw error;
  }
}
