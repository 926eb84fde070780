import type { Express } from 'express';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { RecordingsConfig } from './config';
import { Views } from './services/views';
import { MeetingsService } from './services/meetings.service';
import { SearchService } from './services/search.service';
import type { UseCases } from './usecases';
import { recordingsRoutes } from './routes/recordings.routes';
import { appMeetingRoutes } from './routes/app-meeting.routes';
import { adminRoutes } from './routes/admin.routes';

export interface RecordingsDeps {
  config: RecordingsConfig;
  useCases: UseCases;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The recordings service's express app (reached only through the gateway). */
export function createApp(deps: RecordingsDeps): Express {
  const { config, useCases } = deps;
  const { db, repos, store } = useCases.ctx;
  const views = new Views({ apiBase: `${config.publicBaseUrl}/api/v1`, appUrl: config.appUrl });
  const upload = { submit: useCases.submit, views, store, maxUploadMb: config.uploadLimits.maxUploadMb };
  const meetings = new MeetingsService({ db, repos, access: useCases.access, views });
  const search = new SearchService({
    db,
    search: repos.search,
    transcripts: repos.transcripts,
    access: useCases.access,
    views,
  });
  const app = createServiceApp({ name: 'recordings', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(recordingsRoutes({ ...upload, meetings, search, useCases }));
  app.use(adminRoutes({ ...upload, useCases }));
  app.use(appMeetingRoutes({ db, repos, store, views, search, naming: useCases.naming, trashDays: config.trash.days }));
  return finishApp(app, deps.logger);
}
