import type { RateClass, Scope } from './catalog';
import type { JsonSchema, Texts } from './schema-helpers';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The services a public route can be owned by. */
export type ServiceName = 'account' | 'recordings' | 'series' | 'ask' | 'events';

export interface ParamDef {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** JSON Schema of the value, with `description` and `x-svc-description-fa`. */
  schema: JsonSchema;
}

export interface ResponseDef {
  status: number;
  /** Defaults to application/json. */
  contentType?: string;
  schema: JsonSchema;
  description: string;
  /** Persian description of the response (`x-svc-description-fa` in openapi.json). */
  descriptionFa?: string;
}

/** A request body: JSON, or multipart whose binary parts carry `contentMediaType` in the schema. */
export interface BodyDef {
  contentType: 'application/json' | 'multipart/form-data';
  required: boolean;
  schema: JsonSchema;
  /** OpenAPI encoding of multipart parts (accepted content types per part). */
  encoding?: Record<string, { contentType: string }>;
}

export interface RouteDef {
  operationId: string;
  method: HttpMethod;
  /** Path relative to the API root, OpenAPI style: `/recordings/{id}/status`. */
  path: string;
  /** Scopes of which any one admits a token; `any` admits every live token. */
  scopes: readonly Scope[] | 'any';
  spends: boolean;
  rateClass: RateClass;
  service: ServiceName;
  summary: Texts;
  description: Texts;
  params: readonly ParamDef[];
  /** Request body: JSON Schema (JSON) or multipart description. */
  body?: BodyDef;
  responses: readonly ResponseDef[];
  /**
   * Error codes this route can answer beyond the gateway's checks (documentation and tests).
   * `routeErrorCodes()` adds the gateway's checks that apply to the route.
   */
  errors: readonly string[];
}

/**
 * A route that exists for the web app only. A bearer token gets 401 TOKEN_NOT_ACCEPTED.
 * Not part of openapi.json.
 */
export interface AppOnlyRouteDef {
  method: HttpMethod;
  path: string;
}

/** What every operation of every table has: enough to mount, validate and type it. */
export type OperationDef = Pick<RouteDef, 'operationId' | 'method' | 'path' | 'params' | 'body' | 'responses'>;

/** An operation of the admin API or of the app's own routes: not public, not in openapi.json. */
export interface InternalRouteDef extends OperationDef {
  summary: string;
  /** Who answers it: the gateway (the admin API, the app's access routes) or a service (the app's settings). */
  service: 'gateway' | ServiceName;
  /** Answered by a service the gateway forwards to, at this path (the gateway only checks and passes it on). */
  forward?: { service: ServiceName; path: string };
}
