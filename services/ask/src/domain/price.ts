import { ASK_PRICING, askPrice } from '@mm/contract';

/**
 * What an Ask costs: the contract library's rule (libs/contract/src/pricing.ts), the same one the
 * recordings service prices the quotes by.
 */
export const DEFAULT_CHARS_PER_MINUTE = ASK_PRICING.defaultCharsPerMinute;
export const SERIES_MAX_MEETINGS = ASK_PRICING.seriesMaxMeetings;
export const SERIES_TRANSCRIPT_BUDGET_CHARS = ASK_PRICING.seriesTranscriptBudgetChars;
export const SERIES_MIN_MEETINGS = ASK_PRICING.seriesMinMeetings;
export const priceOf = askPrice;
