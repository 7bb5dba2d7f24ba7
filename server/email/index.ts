/**
 * Outgoing email. Every message is written as plain RFC 5322 text to
 * `<dataDir>/outbox/<timestamp>-<id>.eml`, where an operator (or a test) can read it, and
 * with `--smtp-url` also handed to that relay (smtp.ts, nodemailer); both only once the
 * action that sends it has committed (sendEmailAfterCommit). The text is plain 8bit with
 * one header per line, so the outbox stays readable as it is; non-ASCII header values are
 * RFC 2047 encoded words, split by nodemailer to the standard's length.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeWord } from 'nodemailer/lib/mime-funcs';
import type { EventBatch } from '../actions/transaction';
import type { ServiceConfig } from '../context';
import { sendSmtp } from './smtp';

export const OUTBOX_DIR = 'outbox';

export interface Email {
  to: string;
  subject: string;
  /** Plain text; lines end with \n here and CRLF on the wire. */
  text: string;
}

/** Base64 text per encoded word, so that with its `=?UTF-8?B?...?=` it stays within 75 characters. */
const ENCODED_WORD_TEXT_LENGTH = 52;

/** One header line; a value with CR or LF would inject headers, so it is refused. */
function header(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`Email header ${name} contains a line break`);
  // Non-ASCII header text needs RFC 2047 encoded words, each at most 75 characters long.
  const safe = /^[\x20-\x7e]*$/.test(value) ? value : encodeWord(value, 'B', ENCODED_WORD_TEXT_LENGTH);
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

/** An email formatted and named, ready for the outbox and the relay. */
export interface PreparedEmail {
  to: string;
  from: string;
  /** The outbox file name. */
  name: string;
  /** RFC 5322 text with CRLF line endings. */
  message: string;
}

/** Formats the email (refusing unsafe headers) without sending anything. */
export function prepareEmail(config: ServiceConfig, email: Email, now = new Date()): PreparedEmail {
  const id = randomBytes(8).toString('hex');
  const from = senderAddress(config);
  return {
    to: email.to,
    from,
    name: `${now.getTime()}-${id}.eml`,
    message: formatEmail(email, from, now, id),
  };
}

/**
 * Writes a prepared email to the outbox (atomically: no reader sees half a file) and, with
 * an SMTP relay, hands it over in the background; returns the outbox path.
 */
export function deliverEmail(config: ServiceConfig, prepared: PreparedEmail): string {
  const dir = join(config.dataDir, OUTBOX_DIR);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, prepared.name);
  const temporary = join(dir, `.${prepared.name}.tmp`);
  writeFileSync(temporary, prepared.message, { mode: 0o600 });
  renameSync(temporary, path);
  const { smtpUrl } = config;
  if (smtpUrl) {
    // Never failing the caller: the outbox file is the record, a relay that is down only
    // costs this copy.
    sendSmtp(smtpUrl, prepared.from, prepared.to, prepared.message).catch((error: unknown) => {
      console.error(`Email ${prepared.name} to ${prepared.to} not relayed: ${String(error)}`);
    });
  }
  return path;
}

/**
 * Formats the email now (a bad header fails the action) and delivers it only once the
 * action's transaction has committed: a rollback sends nothing.
 */
export function sendEmailAfterCommit(events: EventBatch, config: ServiceConfig, email: Email): void {
  const prepared = prepareEmail(config, email);
  events.afterCommit(() => deliverEmail(config, prepared));
}
