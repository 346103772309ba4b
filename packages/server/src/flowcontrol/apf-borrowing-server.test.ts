import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import type { RestClient } from '@svc-apiserver/client';
import type { RunningServer } from '../server.js';
import { call, eventually } from '../e2e/http.js';
import { parseExposition, sampleValue, samplesOf } from '../metrics/testing/exposition.js';
import { slowCreate, type Answer } from '../testing/http2-requests.js';
import { startApfTestServer, type ApfTestServer } from '../testing/apf-test-server.js';

let apf: ApfTestServer;
let server: RunningServer;
let client: RestClient;
const lenderUser = 'system:serviceaccount:default:lender';

before(async () => {
  // Twenty seats, the limits adjusted to the levels' demand every 300 ms instead of every 10 s.
  apf = await startApfTestServer({ borrowingAdjustmentPeriodMs: 300 });
  ({ server, client } = apf);
});

after(() => apf.close());

/** The FlowSchema of the test's traffic at each level it sends to. */
const flowSchemaOf: Readonly<Record<string, string>> = { 'global-default': 'global-default', 'workload-low': 'service-accounts' };

/** The flow control figures of every limited level, by metric and level. */
async function figures(): Promise<(metric: string, level: string) => number> {
  const r = await call(client, 'GET', '/metrics', undefined, { accept: '*/*' });
  assert.equal(r.status, 200);
  const families = parseExposition(r.text);
  return (metric, level) => {
    // The request figures are by FlowSchema too.
    const byFlowSchema = metric.endsWith('_requests') || metric === 'request_concurrency_in_use';
    const value = sampleValue(families, `apiserver_flowcontrol_${metric}`, byFlowSchema ? { priority_level: level, flow_schema: flowSchemaOf[level]! } : { priority_level: level });
    assert.ok(value !== undefined, `${metric} of ${level}`);
    return value;
  };
}

async function levelNames(): Promise<string[]> {
  const r = await call(client, 'GET', '/metrics', undefined, { accept: '*/*' });
  return samplesOf(parseExposition(r.text), 'apiserver_flowcontrol_nominal_limit_seats').map((s) => s.labels['priority_level']!);
}

test('borrowing: a flooded level borrows what idle levels lend, and is limited again once its lender gets busy; /metrics shows the figures', async () => {
  await apf.bindClusterAdmin('flooder');
  await apf.bindClusterAdmin(lenderUser);
  const asLender = { 'impersonate-user': lenderUser, 'impersonate-group': 'system:serviceaccounts' };

  const levels = (await levelNames()).sort();
  assert.deepEqual(levels, ['catch-all', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  const idle = await figures();
  const nominalSum = levels.reduce((sum, l) => sum + idle('nominal_limit_seats', l), 0);
  const lowerOf = (except: string[]): number => levels.filter((l) => !except.includes(l)).reduce((sum, l) => sum + idle('lower_limit_seats', l), 0);
  // Nominal: ceil(20 × shares / 245) each; global-default 2 (1 lendable), workload-low 9 (8 lendable).
  assert.equal(nominalSum, 24);
  assert.deepEqual([idle('nominal_limit_seats', 'global-default'), idle('lower_limit_seats', 'global-default'), idle('upper_limit_seats', 'global-default')], [2, 1, 22]);
  assert.deepEqual([idle('nominal_limit_seats', 'workload-low'), idle('lower_limit_seats', 'workload-low'), idle('upper_limit_seats', 'workload-low')], [9, 1, 29]);

  const sessions: ClientHttp2Session[] = [];
  const held: { answer: Promise<Answer>; finish(): void }[] = [];
  try {
    const flooder = connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
    const lender = connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
    sessions.push(flooder, lender);
    // 100 creates of one user that hold their seats: global-default gets every seat the idle levels may lend.
    for (let i = 0; i < 100; i++) held.push(slowCreate(flooder, `flood-${i}`, { 'impersonate-user': 'flooder' }));
    const borrowing = nominalSum - lowerOf(['global-default']);
    assert.equal(borrowing, 14);
    let f = idle;
    // Once all 100 have reached the server (on a loaded machine the last may still be on their way when the first
    // 14 run): 14 executing, the other 86 queued.
    assert.ok(await eventually(async () => {
      f = await figures();
      return f('current_limit_seats', 'global-default') === borrowing && f('current_executing_requests', 'global-default') === borrowing
        && f('current_inqueue_requests', 'global-default') === 100 - borrowing;
    }, 15_000, 50), `global-default runs 14 of its requests and queues 86 (${f('current_executing_requests', 'global-default')} and ${f('current_inqueue_requests', 'global-default')})`);
    assert.equal(f('current_limit_seats', 'workload-low'), 1, 'the idle lender keeps what it may not lend');
    // A whole period at 100 seats of demand: average 100, no deviation; the smoothed demand is at least that (the
    // period the flood began in may have had a higher envelope, average plus deviation, which decays slowly).
    assert.ok(await eventually(async () => (f = await figures())('demand_seats_average', 'global-default') === 100, 15_000, 50));
    assert.equal(f('demand_seats_stdev', 'global-default'), 0);
    // The figures are those of the last whole period (one that began while the last creates arrived showed fewer).
    assert.equal(f('demand_seats_high_watermark', 'global-default'), 100);
    assert.ok(f('demand_seats_smoothed', 'global-default') >= 100);
    assert.equal(f('target_seats', 'global-default'), f('demand_seats_smoothed', 'global-default'));
    assert.equal(f('current_limit_seats', 'global-default'), borrowing);
    assert.equal(f('target_seats', 'workload-low'), 1);
    assert.equal(f('request_concurrency_in_use', 'global-default'), borrowing);

    // The lender gets busy with as many seats of work as its nominal limit.
    for (let i = 0; i < 9; i++) held.push(slowCreate(lender, `lend-${i}`, asLender));
    const limited = nominalSum - lowerOf(['global-default', 'workload-low']) - 9;
    assert.equal(limited, 6);
    assert.ok(await eventually(async () => {
      f = await figures();
      return f('current_limit_seats', 'workload-low') === 9 && f('current_limit_seats', 'global-default') === limited;
    }, 15_000, 50), 'workload-low takes its nominal seats back; global-default is down to 6');
    assert.equal(f('current_executing_requests', 'workload-low'), 9);
    assert.equal(f('demand_seats_high_watermark', 'workload-low'), 9);
    const fairFrac = sampleValue(parseExposition((await call(client, 'GET', '/metrics', undefined, { accept: '*/*' })).text), 'apiserver_flowcontrol_seat_fair_frac', {});
    assert.ok(fairFrac !== undefined && fairFrac > 0 && fairFrac < 1, String(fairFrac));
    for (const h of held) h.finish();
    const answers = await Promise.all(held.map((h) => h.answer));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [201], 'every create was served in the end');
  } finally {
    for (const h of held) h.finish();
    for (const s of sessions) s.close();
  }
});
