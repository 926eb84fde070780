/** The error type lives in the platform (libs/platform), which the bus, the store and the clients share. */
export { ApiError, notFound, validation } from '@mm/platform';
