/** The status feature's emoji picker and its "frequently used" memory, for the other features. */
export { EmojiPicker } from '../status/EmojiPicker';
export { type EmojiChoice, loadUsage, recordUse, saveUsage } from '../status/emojiCatalog';

// The picker's look lives with the status feature.
import '../status/status.css';
