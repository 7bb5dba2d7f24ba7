/**
 * The conversation feature: a narrow's messages (view/), writing them (compose/) and what can be
 * done to one (actions/). The shell shows these screens.
 */
export { ConversationScreen } from './ConversationScreen';
export { NewMessageScreen } from './compose/NewMessageScreen';
