/**
 * `pnpm bus:setup`: the bus setup step from the source tree (libs/bus/src/setup-step.ts; in the
 * images: `node src/main.js bus-setup` of the gateway's). Run it before the services start; a
 * service given the operator's password (NATS_SETUP_PASSWORD or NATS_PASSWORD_OPERATOR, as the
 * launcher does) runs it itself.
 * Environment: NATS_URL, BUS_NAMESPACE, NATS_SETUP_PASSWORD (else NATS_PASSWORD_OPERATOR), STREAM_*.
 */
import { runBusSetup } from '../libs/bus/src/setup-step';

runBusSetup();
