/** Marks the start of a matched word in a snippet (a private-use character). */
export const MARK_START = '\uE000';
/** Marks the end of a matched word in a snippet. */
export const MARK_END = '\uE001';
/** Both marks, as `unsegment` takes them. */
export const MARKS = { start: MARK_START, end: MARK_END } as const;
