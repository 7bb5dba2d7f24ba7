/**
 * Messages by sender and time: register finds each user's newest message to tell long-idle
 * users (user_avatar_url_field_optional) without scanning every message.
 */
export const sql = /* sql */ `
CREATE INDEX messages_sender_date ON messages(sender_id, date_sent);
`;
