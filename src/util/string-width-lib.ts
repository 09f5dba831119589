/**
 * string-width as a file of its own in the build (dist/util/string-width.cjs, rolldown.config.mjs), so that
 * string-width-load.ts can require it on first use instead of every command compiling it at start.
 */
export { default as stringWidth } from 'string-width';
