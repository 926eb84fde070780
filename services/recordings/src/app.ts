import type { Express } from 'express';
import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { ObjectStore } from '@mm/store';
import type { RecordingsConfig } from './config';
import type { Database } from './db/schema';
import { Views } from './services/views';
import { IdempotencyKeys } from './services/idempotency';
import { SubmitService } from './services/submit.service';
import { MeetingAccess } from './services/access';
import { MeetingsService } from './services/meetings.service';
import { SearchService } from './services/search.service';
import { AdminOpsService } from './services/admin-ops.service';
import type { LifecycleService } from './services/lifecycle.service';
import { recordingsRoutes } from './routes/recordings.routes';
import { appMeetingRoutes } from './routes/app-meeting.routes';
import { adminRoutes } from './routes/admin.routes';
import { UploadsInFlight } from './services/uploads-in-flight';

export interface RecordingsDeps {
  config: RecordingsConfig;
  db: Kysely<Database>;
  nc: NatsConnection;
  store: ObjectStore;
  lifecycle: LifecycleService;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
  /** Uploads in flight, drained at shutdown (main.ts); a fresh tracker when left out. */
  uploads?: UploadsInFlight;
}

/** The recordings service's express app (reached only through the gateway). */
export function createApp(deps: RecordingsDeps): Express {
  const { config, db, nc, store } = deps;
  const views = new Views({ apiBase: `${config.publicBaseUrl}/api/v1`, appUrl: config.appUrl });
  const access = new MeetingAccess(nc);
  const upload = {
    submit: new SubmitService({ db, nc, store, maxRecordingMinutes: config.uploadLimits.maxRecordingMinutes, tools: config.mediaTools }),
    keys: new IdempotencyKeys(db, config.staleClaimSeconds),
    views,
    repo: deps.lifecycle.repo,
    store,
    maxUploadMb: config.uploadLimits.maxUploadMb,
    uploads: deps.uploads ?? new UploadsInFlight(),
  };
  const app = createServiceApp({ name: 'recordings', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(recordingsRoutes({ ...upload, meetings: new MeetingsService({ db, nc, lifecycle: deps.lifecycle, access, views }), search: new SearchService({ db, access, views }) }));
  app.use(adminRoutes({ ...upload, ops: new AdminOpsService({ db, nc, lifecycle: deps.lifecycle }) }));
  app.use(appMeetingRoutes({ db, repo: upload.repo, store, views }));
  return finishApp(app, deps.logger);
}
