/**
 * The Message wire object (spec: Message; built by server/formats/messages.ts): what GET
 * /messages answers and a `message` event carries. A plain type, not a schema: messages arrive
 * by the thousand and are checked by the service that made them; events are checked by
 * events.ts, which keeps the fields the client reads.
 */
export interface MessageReaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
}

export interface TopicLink {
  text: string;
  url: string;
}

export interface Message {
  id: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  topic_links?: TopicLink[];
  /** HTML (content_type text/html) unless asked for Markdown. */
  content: string;
  content_type?: string;
  /** A stream's name, or the people of a private conversation (sender included). */
  display_recipient: string | DisplayRecipientUser[];
  recipient_id?: number;
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  /** Unix seconds. */
  timestamp: number;
  is_me_message: boolean;
  client?: string;
  avatar_url: string | null;
  reactions: MessageReaction[];
  last_edit_timestamp?: number;
  edit_history?: unknown[];
  /** The user's flags (GET /messages; a `message` event carries them beside the message). */
  flags: string[];
}
