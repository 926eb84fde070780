import type { NextFunction, Request, Response } from 'express';
import { ApiError, principalOf } from '@mm/http';
import { checkedKeyterms, checkedSeriesName, seriesNotFound } from '../services/series.service';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/**
 * While the account's series feature is off every series route answers 404, before the request
 * is even validated: to the caller the routes do not exist yet. A route that names a series
 * answers as for a series that does not exist; one that names none (creating one) says so.
 */
export const seriesFeatureOn: Middleware = (req, res, next) => {
  try {
    if (!principalOf(res).features.series)
      throw req.params.id === undefined
        ? new ApiError('NOT_FOUND', 'Series are not available to this account.')
        : seriesNotFound();
    next();
  } catch (err) {
    next(err);
  }
};

/**
 * Runs the name and term rules before the schema, so that a broken rule answers the rule's own
 * message (which term, what problem) rather than the schema's pattern text. Values of the wrong
 * type are left to the schema.
 */
export const rulesFirst: Middleware = (req, _res, next) => {
  const body = req.body as { name?: unknown; keyterms?: unknown } | undefined;
  try {
    if (body && typeof body === 'object') {
      if (typeof body.name === 'string') checkedSeriesName(body.name);
      if (Array.isArray(body.keyterms)) checkedKeyterms(body.keyterms);
    }
    next();
  } catch (err) {
    next(err);
  }
};
