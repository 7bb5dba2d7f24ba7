/** The texts of the emails the service sends. */
import type { Email } from './index';

export function confirmNewEmail(opts: {
  to: string;
  fullName: string;
  oldEmail: string;
  link: string;
  realmName: string;
}): Email {
  return {
    to: opts.to,
    subject: `Verify your new email address for ${opts.realmName}`,
    text: [
      `Hi ${opts.fullName},`,
      '',
      `We received a request to change the email address of your ${opts.realmName} account`,
      `from ${opts.oldEmail} to ${opts.to}. To confirm the change, open this link:`,
      '',
      opts.link,
      '',
      'The link works once and expires in 24 hours. If you did not ask for this change,',
      'ignore this email and your address stays as it is.',
    ].join('\n'),
  };
}

export function emailChanged(opts: { to: string; newEmail: string; realmName: string }): Email {
  return {
    to: opts.to,
    subject: `Your email address for ${opts.realmName} has changed`,
    text: [
      `The email address of your ${opts.realmName} account is now ${opts.newEmail}.`,
      '',
      'If you did not make this change, contact your organization administrator at once.',
    ].join('\n'),
  };
}
