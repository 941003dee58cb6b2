// @joplin/turndown-plugin-gfm ships no types: the one plugin scripts/llmsFull.ts uses.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  /** GitHub-flavoured Markdown tables. */
  export const tables: TurndownService.Plugin;
}
