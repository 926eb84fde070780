/** Ids are the platform's (libs/platform). */
export { newId } from '@mm/platform';
