/** The status feature's emoji catalogue (the names the server knows), for the composer's `:` autocomplete. */
export { customEmojiChoices, type EmojiChoice, loadUnicodeCatalog } from '../status/emojiCatalog';
