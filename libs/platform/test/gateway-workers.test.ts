import { availableParallelism } from 'node:os';
import { gatewayWorkersBesideServices } from '../src/config';

/** GATEWAY_WORKERS where the gateway shares its machine with the services (`pnpm start`, the bench). */
describe('gatewayWorkersBesideServices', () => {
  it('is half the cores, rounded down, and never less than one', () => {
    expect([1, 2, 3, 4, 7, 8, 64].map((cores) => gatewayWorkersBesideServices(cores))).toEqual([1, 1, 1, 2, 3, 4, 32]);
    expect(gatewayWorkersBesideServices(0)).toBe(1);
  });

  it("counts this machine's cores when given none", () => {
    expect(gatewayWorkersBesideServices()).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
  });
});
