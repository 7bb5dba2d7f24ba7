/**
 * Messages by stream and time: register and GET /streams count each stream's messages of the
 * last weeks (stream_weekly_traffic) with one range seek per stream, not a scan of every message.
 */
export const sql = /* sql */ `
CREATE INDEX messages_stream_date ON messages(stream_id, date_sent);
`;
