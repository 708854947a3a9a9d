// The topic adaptation's defaults (adapt.ts), apart from its code: option tables read
// them without loading the tokenizer.
export const ADAPT_DEFAULTS = {
  rate: 0.3,
  maxDrift: 0.2,
  maxNewTerms: 5,
  minShare: 0.2,
  minWeight: 0.02,
} as const;
