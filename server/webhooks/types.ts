/** What an incoming-webhook integration is: one file under server/webhooks, listed in registry.ts. */
import type { Payload } from './payload';

/** An extra option an integration accepts as a query parameter of its URL. */
export interface ConfigOption {
  /** The query parameter's name, and the key in `WebhookInput.config`. */
  key: string;
  description: string;
  required?: boolean;
  /** The checked value, or an error message for a 400. */
  validate(value: string): { value: string } | { error: string };
}

export interface WebhookInput {
  /** The body parsed as JSON (only for integrations with `body: 'json'`, the default). */
  payload: Payload;
  /** The body as sent. */
  rawBody: string;
  /** Request headers, lower-case names (some services put the event type there). */
  headers: Record<string, string | undefined>;
  /** The declared config options that were given, validated. */
  config: Record<string, string>;
}

/** What to post: the topic (for stream messages; the `topic` parameter overrides it) and content. */
export interface WebhookMessage {
  topic: string;
  content: string;
}

export interface Integration {
  /** The URL segment: /api/v1/external/<name>. */
  name: string;
  /** Human name; also names the message's client (`Confab<displayName>Webhook`). */
  displayName: string;
  /** 'basic': HTTP Basic (bot email + API key) is accepted besides the `api_key` parameter. */
  auth?: 'api_key' | 'basic';
  /** 'json' (default): the body must be JSON; 'text': the integration reads rawBody itself. */
  body?: 'json' | 'text';
  config?: readonly ConfigOption[];
  /** The message to post, or null when this event is deliberately ignored. */
  handle(input: WebhookInput): WebhookMessage | null;
}
