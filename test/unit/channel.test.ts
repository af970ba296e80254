// The live channel client against the fake TS agent: handshake, refusals, deltas, define round trip, requests.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as net from 'net';
import { ChannelClient, DroppedError, RefusedError, RequestError } from '../../extension/channel/client';
import { encodeFrame, ProtocolError } from '../../extension/channel/codec';
import { PROTOCOL_VERSION } from '../../extension/channel/messages';
import { LiveSession } from '../../extension/channel/session';
import { validateProfile } from '../../core/profile/load';
import { totals } from '../../core/views/aggregate';
import { FakeAgent } from './support/fake-agent';

const TOKEN = 'a'.repeat(64);

async function withAgent(opts: Partial<ConstructorParameters<typeof FakeAgent>[0]>, body: (agent: FakeAgent, port: number) => Promise<void>): Promise<void> {
  const agent = new FakeAgent({ token: TOKEN, ...opts });
  const port = await agent.listen();
  try {
    await body(agent, port);
  } finally {
    await agent.close();
  }
}

function until(cond: () => boolean, ms = 3000): Promise<void> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (cond()) return resolve();
      if (Date.now() - start > ms) return reject(new Error('condition not met in time'));
      setTimeout(tick, 5);
    };
    tick();
  });
}

test('handshake with the right token: welcome, then the whole profile as define + full delta', async () => {
  await withAgent({}, async (agent, port) => {
    const s = await LiveSession.connect({ port, token: TOKEN, client: 'test' });
    assert.equal(s.pid, process.pid);
    assert.equal(s.client.welcome.protocol, 1);
    await until(() => s.profile.sequence >= 1);
    assert.equal(s.profile.nodeCount, 3);
    assert.equal(s.profile.methods.size, 2);
    s.close();
    await until(() => agent.refusedConnections === 0);
  });
});

test('a wrong token is refused with the reason and counted by the agent', async () => {
  await withAgent({}, async (agent, port) => {
    await assert.rejects(ChannelClient.connect({ port, token: 'b'.repeat(64), client: 'test' }), (e: Error) => {
      assert.ok(e instanceof RefusedError);
      assert.match(e.message, /refused the connection: wrong token/);
      return true;
    });
    await assert.rejects(ChannelClient.connect({ port, token: '', client: 'test' }), RefusedError);
    assert.equal(agent.refusedConnections, 2);
    // the right client still gets in afterwards
    const c = await ChannelClient.connect({ port, token: TOKEN, client: 'test' });
    c.close();
  });
});

test('a second client is refused while one is connected', async () => {
  await withAgent({}, async (agent, port) => {
    const first = await ChannelClient.connect({ port, token: TOKEN, client: 'one' });
    await assert.rejects(ChannelClient.connect({ port, token: TOKEN, client: 'two' }), /another client/);
    assert.equal(agent.refusedConnections, 1);
    first.close();
  });
});

test('deltas carry absolute values: the live profile has exactly the agent counts', async () => {
  await withAgent({}, async (agent, port) => {
    const s = await LiveSession.connect({ port, token: TOKEN, client: 'test' });
    await until(() => s.profile.sequence >= 1);
    for (let i = 1; i <= 20; i++) agent.tick(i, 10 * i); // 210 strings, 20 arrays of 2100 elements
    await until(() => s.profile.sequence >= 21);
    const p = s.profile.toProfile();
    validateProfile(JSON.parse(JSON.stringify(p.file))); // what the file loader would accept
    const main = p.threads[0].root.c![0];
    assert.equal(main.m, 10);
    assert.deepEqual(main.a, [[100, 1, 210, 0, 24 * 210]]);
    const work = main.c![0];
    assert.equal(work.calls, 20);
    assert.deepEqual(work.a, [[101, 2, 20, 2100, 20 * 16 + 4 * 2100]]);
    assert.equal(totals(p).objects, 210);
    assert.equal(totals(p).arrays, 20);
    assert.equal(s.profile.stats.objects, 230);
    assert.equal(agent.objects, 230);
    // a repeated delta (coalesced re-send) changes nothing: values are absolute
    agent.sendDelta(false, [agent.nodes.get(2)!]);
    await until(() => s.profile.sequence >= 22);
    assert.deepEqual(s.profile.toProfile().threads[0].root.c![0].a, [[100, 1, 210, 0, 24 * 210]]);
    s.close();
  });
});

test('reset: the agent sends a full delta and the client forgets the old values', async () => {
  await withAgent({}, async (agent, port) => {
    const s = await LiveSession.connect({ port, token: TOKEN, client: 'test' });
    agent.tick(5, 5);
    await until(() => s.profile.stats.objects === 6);
    const events: string[] = [];
    s.on('event', (e: { event: string }) => events.push(e.event));
    await s.reset();
    await until(() => s.profile.stats.objects === 0);
    assert.deepEqual(events, ['reset']);
    assert.equal(totals(s.profile.toProfile()).objects, 0);
    s.close();
  });
});

test('an id used before its definition is asked for with a define request and then resolved', async () => {
  await withAgent({ withhold: [11] }, async (agent, port) => {
    const s = await LiveSession.connect({ port, token: TOKEN, client: 'test' });
    await until(() => s.profile.methods.has(11));
    const asked = agent.requests.filter((r) => r.op === 'define');
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0].methods, [11]);
    assert.deepEqual(s.profile.missingIds(), { types: [], methods: [], sites: [] });
    await until(() => s.profile.toProfile().threads[0].root.c?.[0].c?.[0]?.m === 11);
    assert.equal(s.defineRequests, 1);
    s.close();
  });
});

test('before the definition arrives, toProfile leaves the unknown node out and stays valid', async () => {
  await withAgent({ withhold: [11] }, async (_agent, port) => {
    const c = await ChannelClient.connect({ port, token: TOKEN, client: 'test' });
    const { LiveProfile } = await import('../../core/profile/live');
    const live = new LiveProfile();
    c.on('define', (d) => live.applyDefine(d));
    c.on('delta', (d) => live.applyDelta(d));
    await until(() => live.sequence >= 1);
    assert.deepEqual(live.missingIds().methods, [11]);
    const p = live.toProfile();
    validateProfile(JSON.parse(JSON.stringify(p.file)));
    assert.equal(p.threads[0].root.c![0].c, undefined);
    c.close();
  });
});

test('requests: pause/resume/snapshot/gc answer; an unknown op is an error; requests after close fail', async () => {
  await withAgent({}, async (agent, port) => {
    const s = await LiveSession.connect({ port, token: TOKEN, client: 'test' });
    await s.pause();
    assert.equal(agent.paused, true);
    agent.tick(1, 1);
    await s.resume();
    assert.equal(agent.paused, false);
    assert.deepEqual(await s.snapshot(), { file: '/tmp/fake.heaplens' });
    assert.deepEqual(await s.gc(), {});
    await assert.rejects(s.client.request('frobnicate'), (e: Error) => e instanceof RequestError && /unknown op "frobnicate"/.test(e.message));
    s.close();
    await assert.rejects(s.pause(), /closed/);
  });
});

test('a request without an answer times out', async () => {
  const server = net.createServer((sock) => {
    sock.once('data', () => sock.write(encodeFrame({ type: 'welcome', protocol: 1, pid: 1, meta: {} })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const c = await ChannelClient.connect({ port, token: TOKEN, client: 'test' });
  const t0 = Date.now();
  await assert.rejects(c.request('pause', {}, 200), /no response from the agent within 200 ms/);
  assert.ok(Date.now() - t0 < 2000);
  c.close();
  await new Promise((r) => server.close(r));
});

test('a wrong protocol version or garbage instead of welcome fails the handshake clearly', async () => {
  await withAgent({ rawWelcome: encodeFrame({ type: 'welcome', protocol: 2, pid: 1, meta: {} }) }, async (_agent, port) => {
    await assert.rejects(ChannelClient.connect({ port, token: TOKEN, client: 'test' }), /protocol 2/);
  });
  await withAgent({ rawWelcome: new Uint8Array([0, 0, 0, 3, 0x31, 0x32, 0x33]) }, async (_agent, port) => {
    await assert.rejects(ChannelClient.connect({ port, token: TOKEN, client: 'test' }), ProtocolError);
  });
  await withAgent({ rawWelcome: new Uint8Array([0xff, 0xff, 0xff, 0xff]) }, async (_agent, port) => {
    await assert.rejects(ChannelClient.connect({ port, token: TOKEN, client: 'test' }), /exceeds the 16777216-byte limit/);
  });
});

test('nothing listening: a clear connection error', async () => {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  await assert.rejects(ChannelClient.connect({ port, token: TOKEN, client: 'test' }), /cannot connect to the agent at 127\.0\.0\.1:\d+/);
});

/** A server that answers its i-th connection (from 1) with answer(i)'s frame and, when it is a refusal, closes it. */
async function scripted(answer: (i: number) => { type: string; [k: string]: unknown }, body: (port: number, connections: () => number) => Promise<void>): Promise<void> {
  let n = 0;
  const server = net.createServer((s) => {
    const reply = answer(++n);
    s.once('data', () => {
      s.write(encodeFrame(reply));
      if (reply.type === 'refused') s.end();
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await body((server.address() as net.AddressInfo).port, () => n);
  } finally {
    server.close();
  }
}

const EVICTED = { type: 'refused', reason: 'too many connections waiting for their hello; this one was the oldest' };
const WELCOME = { type: 'welcome', protocol: PROTOCOL_VERSION, pid: 4242, meta: {} };

test('dropped while waiting for its hello (too many peers waiting): the client tries again and gets in', async () => {
  await scripted((i) => (i <= 2 ? EVICTED : WELCOME), async (port, connections) => {
    const c = await ChannelClient.connect({ port, token: TOKEN, client: 'test' });
    assert.equal(c.welcome.pid, 4242);
    assert.equal(connections(), 3);
    c.close();
  });
});

test('a refusal for any other reason is not tried again; endless drops give up after four tries', async () => {
  await scripted(() => ({ type: 'refused', reason: 'wrong token' }), async (port, connections) => {
    await assert.rejects(ChannelClient.connect({ port, token: TOKEN, client: 'test' }), (e: Error) => e instanceof RefusedError && /wrong token/.test(e.message));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(connections(), 1);
  });
  await scripted(() => EVICTED, async (port, connections) => {
    await assert.rejects(ChannelClient.connect({ port, token: TOKEN, client: 'test' }), (e: Error) => e instanceof DroppedError && /too many connections waiting/.test(e.message));
    assert.equal(connections(), 4);
  });
});
