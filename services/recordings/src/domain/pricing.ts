import { attachmentPrice, meetingPrice } from '@mm/contract';

/**
 * A meeting's price: the contract's rule (libs/contract/src/pricing.ts), the same one the app
 * shows before sending.
 */
export const priceOf = meetingPrice;

/** An attachment costs 1 minute per started 2 MB. */
export const attachmentMinutesOf = attachmentPrice;
