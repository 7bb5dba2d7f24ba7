/**
 * Writing messages: the composer under a message view, the New message screen, who is typing,
 * and what other parts of the app ask of the composer (quote, restore an unsent message, focus).
 * The outbox (messages on their way) is the main process's, read through queries/outbox.
 */
export { discardOutbox, retryOutbox, useOutboxItems } from '../../../queries/outbox';
export { Composer } from './Composer';
export { NewMessageScreen } from './NewMessageScreen';
export { composeActions } from './store';
export { TypingIndicator } from './TypingIndicator';
export { type ComposeTarget, targetOfMessage, targetOfNarrow } from './target';
