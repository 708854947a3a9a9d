/** How the parser treats each element, as bit flags looked up once per tag. */

/** Content is ignored: no text, no links. */
export const F_SKIP = 1;
/** Text is not visible, but links inside count (noscript). */
export const F_HIDDEN = 2;
/** A block: its text is set apart by a line break. */
export const F_BLOCK = 4;
/** A table cell: set apart by a space. */
export const F_CELL = 8;
/** Bounds link contexts (blocks and cells that have content). */
export const F_CONTEXT = 16;
/** A line break with no content (br, hr). */
export const F_BREAK = 32;
/** Needs its own handling in onopentag (links, title, meta, base, html, img). */
export const F_SPECIAL = 64;

const FLAGS = new Map<string, number>();
function set(names: string, flags: number): void {
  for (const n of names.split(' ')) FLAGS.set(n, (FLAGS.get(n) ?? 0) | flags);
}

// iframe/noembed/noframes/textarea content is raw text (fallback or form data);
// select/option lists, media fallbacks and canvas fallbacks are not page text.
set(
  'script style template svg math iframe noembed noframes textarea select audio video canvas',
  F_SKIP,
);
set('title', F_SKIP | F_SPECIAL);
set('noscript', F_HIDDEN);
set(
  'address article aside blockquote caption center dd details dialog dir div dl dt fieldset ' +
    'figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup legend li main menu nav ol ' +
    'p pre section summary table tbody tfoot thead tr ul body',
  F_BLOCK | F_CONTEXT,
);
set('td th', F_CELL | F_CONTEXT);
set('br hr', F_BREAK);
set('a area frame iframe link meta base html img', F_SPECIAL);

/** Flags of a (lower-case) tag name; 0 for ordinary inline elements. */
export function tagFlags(name: string): number {
  return FLAGS.get(name) ?? 0;
}
