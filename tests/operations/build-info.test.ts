import request from 'supertest';
import { createOpsApp } from '@mm/http';

/** Issue 26: a running service says which build it is, on /healthz and as the build_info metric. */
describe('the build a service runs', () => {
  const saved = { version: process.env.APP_VERSION, commit: process.env.GIT_COMMIT };
  afterAll(() => {
    process.env.APP_VERSION = saved.version;
    process.env.GIT_COMMIT = saved.commit;
    if (saved.version === undefined) delete process.env.APP_VERSION;
    if (saved.commit === undefined) delete process.env.GIT_COMMIT;
  });

  it('answers /healthz with the image version and commit, and exports build_info with them and Node', async () => {
    process.env.APP_VERSION = '1.6.0';
    process.env.GIT_COMMIT = 'abc1234';
    const app = createOpsApp({ name: 'build-info-test', ready: async () => true });
    const health = await request(app).get('/healthz');
    expect(health.body).toEqual({ status: 'ok', version: '1.6.0', commit: 'abc1234' });
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toContain(
      `build_info{version="1.6.0",commit="abc1234",node="${process.version}",service="build-info-test"} 1`,
    );
  });
});
