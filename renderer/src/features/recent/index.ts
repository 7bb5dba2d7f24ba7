export { RecentConversations } from './RecentConversations';
