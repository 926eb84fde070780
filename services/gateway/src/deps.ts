import type { Bus } from '@mm/bus';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config';
import type { Database } from './db/schema';
import type { ReadPipelines } from './services/proxy';
import type { SendMail } from './services/sign-in.service';

/** What the gateway's handlers are made from (main.ts opens them; app.ts and app-door.ts use them). */
export interface GatewayDeps {
  config: GatewayConfig;
  db: Kysely<Database>;
  redis: Redis;
  bus: Bus;
  logger: Logger;
  /** The pipelined connections reads take to the owning services (closed by whoever made them). */
  reads: ReadPipelines;
  ready: () => Promise<boolean>;
  /** Sends the app's invite and reset emails (null without SMTP_URL). */
  sendMail?: SendMail;
}
