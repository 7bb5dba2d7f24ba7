/**
 * Outgoing email. Every message is written as plain RFC 5322 text to
 * `<dataDir>/outbox/<timestamp>-<id>.eml`, where an operator (or a test) can read it, and
 * with `--smtp-url` also handed to that relay (smtp.ts) once the current action is over.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig } from '../context';
import { sendSmtp } from './smtp';

export const OUTBOX_DIR = 'outbox';

export interface Email {
  to: string;
  subject: string;
  /** Plain text; lines end with \n here and CRLF on the wire. */
  text: string;
}

/** One header line; a value with CR or LF would inject headers, so it is refused. */
function header(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`Email header ${name} contains a line break`);
  // Non-ASCII header text needs RFC 2047 encoded words.
  const safe = /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;
  return `${name}: ${safe}`;
}

export function senderAddress(config: Pick<ServiceConfig, 'publicUrl'>): string {
  let host = 'localhost';
  try {
    host = new URL(config.publicUrl).hostname || host;
  } catch {
    // An unusable URL still sends from localhost.
  }
  return `noreply@${host.replace(/^\[|\]$/g, '')}`;
}

/** The message as RFC 5322 text with CRLF line endings. */
export function formatEmail(email: Email, from: string, now: Date, id: string): string {
  const lines = [
    header('From', `Confab <${from}>`),
    header('To', email.to),
    header('Subject', email.subject),
    header('Date', now.toUTCString().replace('GMT', '+0000')),
    header('Message-ID', `<${id}@${from.split('@')[1] ?? 'localhost'}>`),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    ...email.text.replace(/\r\n?/g, '\n').split('\n'),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** Writes the email to the outbox (atomically: no reader sees half a file); returns its path. */
export function sendEmail(config: ServiceConfig, email: Email, now = new Date()): string {
  const dir = join(config.dataDir, OUTBOX_DIR);
  mkdirSync(dir, { recursive: true });
  const id = randomBytes(8).toString('hex');
  const name = `${now.getTime()}-${id}.eml`;
  const path = join(dir, name);
  const temporary = join(dir, `.${name}.tmp`);
  const from = senderAddress(config);
  const message = formatEmail(email, from, now, id);
  writeFileSync(temporary, message, { mode: 0o600 });
  renameSync(temporary, path);
  const { smtpUrl } = config;
  if (smtpUrl) {
    // After the caller's transaction (which runs synchronously) and never failing it: the
    // outbox file is the record, a relay that is down only costs this copy.
    setImmediate(() => {
      sendSmtp(smtpUrl, from, email.to, message).catch((error: unknown) => {
        console.error(`Email ${name} to ${email.to} not relayed: ${String(error)}`);
      });
    });
  }
  return path;
}
