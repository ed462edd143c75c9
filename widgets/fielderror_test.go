package widgets

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// badScenarios are scenario documents the loader refuses, each with the
// English the command line prints for it.
var badScenarios = []struct{ doc, want string }{
	{`not json`, `scenario: not a JSON object: invalid character 'o' in literal null (expecting 'u')`},
	{`{"mode": "redis"} {}`, `scenario: unexpected data after the JSON object`},
	{`null`, `scenario: not a JSON object`},
	{`{}`, `mode: missing (one of redis, redlock, zookeeper, etcd, kubernetes, dynamodb)`},
	{`{"mode": 3}`, `mode: want a string, got 3`},
	{`{"mode": "paxos"}`, `mode: unknown mode "paxos" (one of redis, redlock, zookeeper, etcd, kubernetes, dynamodb)`},
	{`{"mode": "redis", "x": 1}`, `x: unknown field`},
	{`{"mode": "redis", "clients": "two"}`, `clients: want int, got string`},
	{`{"mode": "redis", "ttl": true}`, `ttl: want a duration such as "10s", got true`},
	{`{"mode": "redis", "faults": [{"at": "1x", "pause": "client-1", "for": "1s"}]}`, `faults[0].at: want a duration such as "10s", got "1x"`},
	{`{"mode": "redis", "captions": [{"at": "soon", "text": "hi"}]}`, `captions: want a duration such as "10s", got "soon"`},
	{`{"mode": "redis", "faults": {}}`, `faults: want a list of faults`},
	{`{"mode": "redis", "faults": [` + strings.Repeat(`{},`, sim.MaxFaults) + `{}]}`, `faults: 10001 faults, at most 10000`},
	{`{"mode": "redis", "faults": [1]}`, `faults[0]: want an object`},
	{`{"mode": "redis", "faults": [{"pause": "client-1", "for": "1s"}]}`, `faults[0].at: missing`},
	{`{"mode": "redis", "faults": [{"at": "1s", "pouse": "client-1"}]}`, `faults[0].pouse: unknown field`},
	{`{"mode": "redis", "ttl": "-1s"}`, `ttl: -1s is negative`},
	{`{"mode": "redis", "duration": "0s"}`, `duration: must be more than 0`},
	{`{"mode": "redis", "work": "25h"}`, `work: 25h0m0s is longer than 24h0m0s`},
	{`{"mode": "redis", "clients": 201}`, `clients: 201, want 1 to 200`},
	{`{"mode": "redis", "rounds": -1}`, `rounds: -1 is negative (0 means until the end)`},
	{`{"mode": "redis", "tries": -2}`, `tries: -2 is negative (0 means until the end)`},
	{`{"mode": "redis", "clockDrift": 0.6}`, `clockDrift: 0.6, want 0 to 0.5`},
	{`{"mode": "etcd", "failoverAfter": "5s"}`, `failoverAfter: only for redis with a replica (Sentinel's delay)`},
	{`{"mode": "redis", "failoverAfter": "-5s"}`, `failoverAfter: -5s is negative`},
	{`{"mode": "etcd", "sentinels": 3}`, `sentinels: only for redis with a replica (Sentinel processes)`},
	{`{"mode": "redis", "replica": true, "sentinels": 8}`, `sentinels: 8, want 0 to 7`},
	{`{"mode": "zookeeper", "downAfter": "5s"}`, `downAfter: only for redis with Sentinels (down-after-milliseconds)`},
	{`{"mode": "redis", "replica": true, "sentinels": 3, "downAfter": "50ms"}`, `downAfter: 50ms, want at least 100ms`},
	{`{"mode": "redlock", "preVote": true}`, `preVote: only for etcd (raft's pre-vote)`},
	{`{"mode": "etcd", "contextTimeout": true}`, `contextTimeout: only for redlock (go-redis's ContextTimeoutEnabled)`},
	{`{"mode": "redis", "readTimeout": "3s"}`, `readTimeout: only for redlock (go-redis's Options.ReadTimeout)`},
	{`{"mode": "redlock", "readTimeout": "2m"}`, `readTimeout: 2m0s, want 1ms to 1m (go-redis's read deadline)`},
	{`{"mode": "redis", "driftFactor": -0.25}`, `driftFactor: -0.25, want 0 to 0.5`},
	{`{"mode": "redlock", "driftFactor": -0.25}`, `driftFactor: -0.25, want 0 to 0.5`},
	{`{"mode": "redis", "faults": [{"at": "25h", "crash": "redis-1"}]}`, `faults[0].at: 25h0m0s is outside 0..24h0m0s`},
	{`{"mode": "redis", "faults": [{"at": "1s", "crash": "redis-1", "for": "-1s"}]}`, `faults[0].for: -1s is outside 0..24h0m0s`},
	{`{"mode": "redis", "faults": [{"at": "1s", "clockJump": "redis-1", "by": "-25h"}]}`, `faults[0].by: -25h0m0s is larger than 24h0m0s`},
	{`{"mode": "redis", "faults": [{"at": "1s", "pause": "client-1", "for": "1s", "monotonic": true}]}`, `faults[0].monotonic: only for a clockJump: it steps the monotonic clock with the wall clock`},
	{`{"mode": "redis", "faults": [{"at": "1s"}]}`, `faults[0]: want exactly one of pause, clockJump, partition, crash, restart, failover`},
	{`{"mode": "redis", "faults": [{"at": "1s"}, {"at": "2s", "pause": "redis-9", "for": "1s"}]}`, `faults[0]: want exactly one of pause, clockJump, partition, crash, restart, failover`},
	{`{"mode": "redis", "faults": [{"at": "2s", "pause": "redis-9", "for": "1s"}]}`, `faults[0].pause: unknown node "redis-9" (known: client-1, client-2, redis-1, storage)`},
	{`{"mode": "redis", "faults": [{"at": "1s", "pause": "client-1"}]}`, `faults[0].for: a pause needs a length such as "5s"`},
	{`{"mode": "redis", "faults": [{"at": "1s", "clockJump": "redis-1"}]}`, `faults[0].by: a clock jump needs a size such as "10s"`},
	{`{"mode": "redis", "faults": [{"at": "1s", "partition": [], "for": "1s"}]}`, `faults[0].partition: want at least one group of nodes`},
	{`{"mode": "redis", "faults": [{"at": "1s", "partition": [["client-1"], ["client-1"]], "for": "1s"}]}`, `faults[0].partition: "client-1" is in two groups`},
	{`{"mode": "redis", "faults": [{"at": "1s", "partition": [["client-1"], ["redis-1"]]}]}`, `faults[0].for: a partition needs a length such as "5s"`},
	{`{"mode": "redis", "faults": [{"at": "1s", "failover": "redis-1"}]}`, `faults[0].failover: failover needs a replica: set "replica": true`},
	{`{"mode": "redis", "replica": true, "faults": [{"at": "1s", "failover": "redis-2"}]}`, `faults[0].failover: redis-2 is not the master; fail over redis-1`},
	{`{"mode": "redis", "changes": [{"at": "-1s", "set": {"ttl": "5s"}}]}`, `changes[0].at: -1s is outside 0..24h0m0s`},
	{`{"mode": "redis", "changes": [{"at": "1s", "set": {}}]}`, `changes[0].set: want at least one field`},
	{`{"mode": "redis", "changes": [{"at": "1s", "set": {"clients": 3}}]}`, `changes[0].set.clients: cannot change during a run (one of ttl, work, think, latency, jitter, fencing, retryDelay, tries, watchdog, plainDel, driftFactor, checkValidity, readTimeout, respectSuspended)`},
	{`{"mode": "redis", "changes": [{"at": "1s", "set": {"ttl": "5x"}}]}`, `changes[0].set.ttl: want a duration such as "10s", got "5x"`},
	{`{"mode": "redis", "changes": [{"at": "1s", "set": {"ttl": "-5s"}}]}`, `changes[0].set: ttl: -5s is negative`},
	{`{"mode": "redis", "captions": [{"at": "-1s", "text": "too early"}]}`, `captions[0].at: -1s is outside 0..24h0m0s`},
	{`{"mode": "redis", "herd": true}`, `herd: only zookeeper and etcd have watches to herd`},
	{`{"mode": "redis", "sequential": true}`, `sequential: only for redlock`},
	{`{"mode": "redis", "checkValidity": true}`, `checkValidity: only for redlock`},
	{`{"mode": "redis", "faults": [{"at": "1s", "when": "granted", "pause": "client-1", "for": "1s"}]}`, `faults[0].when: give either at or when, not both`},
	{`{"mode": "redis", "faults": [{"when": "soon", "pause": "client-1", "for": "1s"}]}`, `faults[0].when: "soon" is not a step (one of granted, before-write)`},
	{`{"mode": "redis", "faults": [{"when": "granted", "pause": "redis-1", "for": "1s"}]}`, `faults[0].pause: "redis-1" is not a client: "when" ties the fault to a client's step`},
	{`{"mode": "redis", "faults": [{"when": "granted", "restart": "client-1"}]}`, `faults[0].restart: a fault with "when" is a pause, crash or clockJump of one client`},
	{`{"mode": "redis", "faults": [{"at": "1s", "round": 2, "crash": "client-1"}]}`, `faults[0].round: a round needs "when"`},
	{`{"mode": "redis", "faults": [{"when": "granted", "round": -2, "crash": "client-1"}]}`, `faults[0].round: -2 is negative`},
	{`{"mode": "redlock", "nodes": 10}`, `nodes: 10, want 1 to 9 independent masters`},
	{`{"mode": "redlock", "fencing": true}`, `fencing: Redlock has no fencing token: its lock values are random, not ordered, so the storage cannot tell a late write of an old holder from a new holder's (Kleppmann, "How to do distributed locking")`},
	{`{"mode": "redlock", "replica": true}`, `replica: Redlock masters are independent and have no replica; use redis mode for one`},
	{`{"mode": "redlock", "herd": true}`, `herd: only zookeeper and etcd have watches to herd`},
	{`{"mode": "redlock", "reenter": "1s"}`, `reenter: redsync's Mutex is not reentrant: a second Lock draws a new value, SET NX fails against its own key on every master, and after its tries it returns ErrFailed`},
	{`{"mode": "redis", "client": "plain", "reenter": "1s"}`, `reenter: the plain client is not reentrant: its SET NX fails against its own key; use Redisson's client`},
	{`{"mode": "etcd", "work": "2s", "reenter": "1s"}`, `reenter: 1s: the inner section (1s to 2s into the work) must end before the work (2s) does`},
	{`{"mode": "redlock", "plainDel": true}`, `plainDel: only for redis; Redlock always releases with compare-and-delete`},
	{`{"mode": "redlock", "client": "plain"}`, `client: only for redis (its lock client, Redisson or a plain SET NX one)`},
	{`{"mode": "redis", "client": "jedis"}`, `client: want one of redisson, redisson-fair, redisson-3.16, plain, got "jedis"`},
	{`{"mode": "redis", "use": "election"}`, `use: only for zookeeper and etcd (a lock or a leader election)`},
	{`{"mode": "redlock", "leadPeriods": 2}`, `leadPeriods: only for zookeeper, etcd and kubernetes (a leader's periods before it resigns)`},
	{`{"mode": "etcd", "use": "election", "leadPeriods": -1}`, `leadPeriods: -1, want 0 to 1000`},
	{`{"mode": "dynamodb", "readers": 2}`, `readers: only for redis, zookeeper and etcd (a read–write lock)`},
	{`{"mode": "zookeeper", "readers": -1}`, `readers: -1, want 0 to 100`},
	{`{"mode": "zookeeper", "use": "election", "readers": 2}`, `readers: a leader election has no readers: use lock`},
	{`{"mode": "etcd", "readers": 1, "fencing": true}`, `readers: RWMutex keeps its key unexported and has no IsOwner(): no Txn can be guarded by it; turn fencing off`},
	{`{"mode": "etcd", "readers": 1, "work": "3s", "reenter": "1s"}`, `readers: RWMutex is not reentrant: a second Lock creates another key, which waits for the first, its own`},
	{`{"mode": "etcd", "readers": 1, "herd": true}`, `readers: RWMutex waits on one key; herd is for the Mutex`},
	{`{"mode": "redis", "readers": 1, "replica": true}`, `readers: RReadWriteLock is simulated with Redisson 4.7.0's client (client redisson) on a lone master: no replica, reenter or plainDel`},
	{`{"mode": "redlock", "faults": [{"at": "1s", "failover": "redis-1"}]}`, `faults[0].failover: Redlock masters have no replica to promote; use crash and restart`},
	{`{"mode": "zookeeper", "plainDel": true}`, `plainDel: only for redis; a zookeeper client releases by deleting its own znode`},
	{`{"mode": "zookeeper", "replica": true}`, `replica: only for redis; a zookeeper ensemble replicates every write (set nodes)`},
	{`{"mode": "zookeeper", "sequential": true}`, `sequential: only for redlock`},
	{`{"mode": "zookeeper", "watchdog": true}`, `watchdog: only for redis and redlock; a zookeeper session is kept alive by pings`},
	{`{"mode": "zookeeper", "nodes": 8}`, `nodes: 8, want 1 to 7`},
	{`{"mode": "zookeeper", "faults": [{"at": "1s", "failover": "zk-1"}]}`, `faults[0].failover: a zookeeper ensemble elects its own leader: crash the leader instead`},
	{`{"mode": "etcd", "nodes": 0}`, `nodes: 0, want 1 to 7 etcd members`},
	{`{"mode": "etcd", "plainDel": true}`, `plainDel: only for redis; an etcd mutex unlocks by deleting its own key`},
	{`{"mode": "etcd", "replica": true}`, `replica: only for redis; etcd replicates every write through raft`},
	{`{"mode": "etcd", "sequential": true}`, `sequential: only for redlock`},
	{`{"mode": "etcd", "watchdog": true}`, `watchdog: only for redis; an etcd session keeps its lease alive every TTL/3 by itself`},
	{`{"mode": "dynamodb", "fencing": true}`, `fencing: the DynamoDB lock has no fencing token: its recordVersionNumber is a random UUID, not ordered, and guards only the lock item (awslabs/amazon-dynamodb-lock-client#1)`},
	{`{"mode": "dynamodb", "plainDel": true}`, `plainDel: only for redis; the DynamoDB lock client releases with a DeleteItem conditioned on its owner and recordVersionNumber`},
	{`{"mode": "dynamodb", "replica": true}`, `replica: only for redis; a DynamoDB table replicates inside AWS`},
	{`{"mode": "dynamodb", "watchdog": true}`, `watchdog: only for redis and redlock; the DynamoDB lock client heartbeats every heartbeatPeriod by itself`},
	{`{"mode": "dynamodb", "safeTime": "5s"}`, `safeTime: 5s: safeTimeWithoutHeartbeat must be greater than heartbeat frequency (5s)`},
	{`{"mode": "dynamodb", "safeTime": "20s"}`, `safeTime: 20s: safeTimeWithoutHeartbeat must be less than the lock's lease duration (20s)`},
	{`{"mode": "dynamodb", "safeTime": "2h"}`, `safeTime: 2h0m0s, want 0 to 1h`},
	{`{"mode": "dynamodb", "heartbeatPeriod": "1ms"}`, `heartbeatPeriod: 1ms, want 10ms to 1m`},
	{`{"mode": "dynamodb", "faults": [{"at": "1s", "failover": "dynamodb-1"}]}`, `faults[0].failover: a DynamoDB table fails over inside AWS: crash or partition dynamodb-1 instead`},
	{`{"mode": "redis", "heartbeatPeriod": "1s"}`, `heartbeatPeriod: only for dynamodb (the lock client's heartbeat thread)`},
	{`{"mode": "redis", "refreshPeriod": "1s"}`, `refreshPeriod: only for dynamodb (acquireLock's polling)`},
	{`{"mode": "redis", "safeTime": "1s"}`, `safeTime: only for dynamodb (the session monitor's safeTimeWithoutHeartbeat)`},
	{`{"mode": "redis", "checkExpired": true}`, `checkExpired: only for dynamodb`},
	{`{"mode": "kubernetes", "plainDel": true}`, `plainDel: only for redis; a Kubernetes Lease is released by an update that empties holderIdentity`},
	{`{"mode": "kubernetes", "replica": true}`, `replica: only for redis; the apiserver's etcd replicates every write through raft`},
	{`{"mode": "kubernetes", "watchdog": true}`, `watchdog: only for redis and redlock; client-go's leader renews every retryPeriod by itself`},
	{`{"mode": "kubernetes", "faults": [{"at": "1s", "failover": "etcd-1"}]}`, `faults[0].failover: the apiserver's etcd members elect a new leader by themselves: crash the etcd leader instead`},
	{`{"mode": "kubernetes", "ttl": "10s", "renewDeadline": "10s"}`, `renewDeadline: leaseDuration must be greater than renewDeadline (10s, 10s)`},
	{`{"mode": "kubernetes", "retryPeriod": "9s"}`, `retryPeriod: renewDeadline must be greater than retryPeriod*JitterFactor (10s, 9s × 1.2)`},
	{`{"mode": "kubernetes", "ttl": "900ms", "renewDeadline": "500ms", "retryPeriod": "100ms"}`, `ttl: 900ms: leaseDurationSeconds is whole seconds (int(LeaseDuration / time.Second)), want 1s or more`},
	{`{"mode": "kubernetes", "retryPeriod": "1ms"}`, `retryPeriod: 1ms, want 10ms to 2m`},
	{`{"mode": "redis", "renewDeadline": "5s"}`, `renewDeadline: only for kubernetes (client-go's leader election)`},
	{`{"mode": "redis", "retryPeriod": "1s"}`, `retryPeriod: only for kubernetes (client-go's leader election)`},
	{`{"mode": "redis", "releaseOnCancel": true}`, `releaseOnCancel: only for kubernetes`},
	{`{"mode": "etcd", "faults": [{"at": "1s", "failover": "etcd-1"}]}`, `faults[0].failover: etcd members elect a new leader by themselves: crash the leader instead`},
}

// Every problem the scenario loader and the modes' validators state is
// the same English as before, and comes with a key whose English is that
// problem to the character, so the window says in Chinese exactly what
// the command line says in English; every field.* key is so used.
func TestFieldErrorsAreTheSimulatorsEnglish(t *testing.T) {
	require.Equal(t, i18n.English, i18n.Current())
	used := map[string]bool{}
	for _, tc := range badScenarios {
		name := tc.doc
		if len(name) > 90 {
			name = name[:90] + "..."
		}
		_, err := sim.ParseScenario([]byte(tc.doc))
		require.Error(t, err, name)
		assert.Equal(t, tc.want, err.Error(), name)
		var fe *sim.FieldError
		if !assert.True(t, errors.As(err, &fe), "%s: %v is no FieldError", name, err) {
			continue
		}
		if assert.NotEmpty(t, fe.Words.Key, "%s: %q has no key", name, fe.English) {
			useKeys(used, fe.Words)
			assert.Equal(t, fe.English, Say(fe.Words, ""), name)
			assert.True(t, strings.HasSuffix(err.Error(), fe.Error()), "%s: the problem ends the message", name)
		}
	}
	for _, k := range i18n.Keys(i18n.English) {
		if strings.HasPrefix(k, "field.") {
			assert.True(t, used[k], "no bad scenario says %s", k)
		}
	}
}

// useKeys marks the key of w and of every sentence inside it (the
// designs a refusal names) as used.
func useKeys(used map[string]bool, w sim.Words) {
	used[w.Key] = true
	for _, p := range w.Parts {
		useKeys(used, p)
	}
}

// In Chinese a field's problem is Chinese, with the JSON field name, the
// figures and the node names as the file spells them.
func TestFieldErrorsInChinese(t *testing.T) {
	widgettest.InChinese(t)
	for _, tc := range []struct{ doc, want string }{
		{`{"mode": "redis", "ttl": "-1s"}`, "-1s 是负数"},
		{`{"mode": "redis", "clients": 201}`, "201，应在 1 到 200 之间"},
		{`{"mode": "redis", "faults": [{"at": "2s", "pause": "redis-9", "for": "1s"}]}`, `未知节点 "redis-9"（已知：client-1, client-2, redis-1, storage）`},
		{`{"mode": "etcd", "watchdog": true}`, "只用于 redis；etcd 会话每隔 TTL/3 自己续约租约"},
	} {
		_, err := sim.ParseScenario([]byte(tc.doc))
		var fe *sim.FieldError
		require.True(t, errors.As(err, &fe), tc.doc)
		assert.Equal(t, tc.want, Say(fe.Words, fe.English), tc.doc)
	}
}

// A recording too large to keep is refused with the same English in the
// window as on the command line.
func TestTooBigToRecordIsTheSimulatorsEnglish(t *testing.T) {
	require.Equal(t, i18n.English, i18n.Current())
	sc, err := sim.ParseScenario([]byte(`{"mode": "redis", "clients": 20, "rounds": 0, "duration": "24h"}`))
	require.NoError(t, err)
	_, err = sim.RecordWith(sc, sim.RecordOptions{CheckpointBudget: 1 << 20})
	var fe *sim.FieldError
	require.True(t, errors.As(err, &fe), "%v is no FieldError", err)
	assert.Equal(t, "record.tooBig", fe.Words.Key)
	assert.Equal(t, fe.English, Say(fe.Words, ""))
	assert.Contains(t, err.Error(), "duration: 24h0m0s of this scenario is about ")
}

// A scenario field's problem reads in the window's language, wherever the
// wrapping put it (after the file's name, inside a change, after the
// fault that failed over): the field keeps its JSON name, the English is
// the simulator's own.
func TestErrorTextSaysAFieldsProblemInTheLanguage(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	for _, tc := range []struct{ doc, zh string }{
		{`{"mode": "redis", "clients": 201}`, "clients: 201，应在 1 到 200 之间"},
		{`{"mode": "redis", "changes": [{"at": "1s", "set": {"ttl": "-5s"}}]}`, "changes[0].set: ttl: -5s 是负数"},
		{`{"mode": "redis", "changes": [{"at": "1s", "set": {"ttl": "5x"}}]}`, `changes[0].set.ttl: 应为时长，例如 "10s"，实际是 "5x"`},
		{`{"mode": "redis", "faults": [{"at": "1s", "failover": "redis-1"}]}`, `faults[0].failover: 故障转移需要副本：请设置 "replica": true`},
		{`{"mode": "etcd", "herd": true, "sequential": true}`, "sequential: 只用于 redlock"},
		{`{"mode": "redis", "herd": true}`, "herd: 只有 zookeeper 和 etcd 有会引发羊群效应的 watch"},
		{`{"mode": "zookeeper", "work": "3s", "reenter": "2s"}`, "reenter: 2s：内层临界区（工作开始后 2s 到 4s）必须在工作（3s）结束前结束"},
		{`{"mode": "etcd", "failoverAfter": "2s"}`, "failoverAfter: 只用于带副本的 redis（Sentinel 的延迟）"},
		{`{"mode": "redlock", "fencing": true}`, "fencing: Redlock 没有 fencing 令牌：它的锁值是随机的，没有顺序，所以存储分不清旧持有者迟到的写入和新持有者的写入（Kleppmann，《How to do distributed locking》）"},
		{`{"mode": "paxos"}`, `mode: 未知模式 "paxos"（可选 redis, redlock, zookeeper, etcd, kubernetes, dynamodb 之一）`},
	} {
		_, err := sim.ParseScenario([]byte(tc.doc))
		require.Error(t, err)
		i18n.Set(i18n.English)
		assert.Equal(t, err.Error(), ErrorText(err), "English is the simulator's own")
		i18n.Set(i18n.Chinese)
		assert.Equal(t, tc.zh, ErrorText(err), tc.doc)
	}
	i18n.Set(i18n.Chinese)
	assert.Contains(t, ErrorText(redlock.ErrFencing), "没有 fencing 令牌", "the fencing refusal keeps its own words")
}
