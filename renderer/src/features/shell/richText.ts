/**
 * The people feature's renderer of the server's HTML (only known tags, web links and text come
 * through; nothing runs), for the other features: they import each other through the shell.
 */
export { RichText } from '../people/RichText';
