package redis

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
)

// TestFailoverAfterSliderNeedsAReplica: Sentinel's delay is off without a
// replica and reads the scenario's own value with one.
func TestFailoverAfterSliderNeedsAReplica(t *testing.T) {
	spec := Tab.Slider(redissim.FailoverAfter.Key)
	plain, err := simtest.Load("redis-gc-pause")
	require.NoError(t, err)
	_, ok := spec.Value(plain)
	assert.False(t, ok, "no replica: nothing for Sentinel to promote")
	failover, err := simtest.Load("redis-failover")
	require.NoError(t, err)
	v, ok := spec.Value(failover)
	require.True(t, ok)
	assert.Equal(t, redissim.FailoverAfter.Of(failover).D().Seconds(), v)
	assert.Contains(t, spec.Help(), "30 s")
}

func TestRedisProtocolFollowsTheScenario(t *testing.T) {
	sc, err := simtest.Load("redis-gc-pause")
	require.NoError(t, err)
	lines := redisProtocol(sc)
	assert.Equal(t, "acquire: Redisson's lock script on the hash lock (HINCRBY our hold count, PEXPIRE 10000); held by another: retry after about 100 ms (jittered)", lines[0])
	assert.Contains(t, lines, "no watchdog: the key expires 10 s after the SET, whatever the holder is doing")
	assert.Contains(t, lines, "a request with no reply in 3 s times out; Redisson 4.7.0 resends only what may be resent (not a lone master's lock and unlock scripts), after 0.5–2 s, up to 4 times")
	for client, line := range map[string]string{
		redissim.ClientRedisson316: "a request with no reply in 3 s is resent after 1.5 s, up to 3 times, the lock script too (Redisson 3.16.8's timeout, retryInterval and retryAttempts)",
		redissim.ClientPlain:       "a request with no reply in 3 s fails: the plain client resends nothing",
	} {
		old := sc.Clone()
		redissim.Client.Set(old, client)
		assert.Contains(t, redisProtocol(old), line)
	}

	sc = sc.Clone()
	sc.Fencing = true
	for _, o := range []sim.BoolOption{redissim.Watchdog, redissim.PlainDel, redissim.Replica} {
		o.Set(sc, true)
	}
	lines = redisProtocol(sc)
	assert.Contains(t, lines[0], "INCR the fencing counter")
	assert.Contains(t, lines, "watchdog: every 3.333 s (TTL/3) PEXPIRE lock 10000 if the value is still ours; stop when it returns 0")
	assert.Contains(t, lines, "release: a bare DEL lock — it deletes the key whoever owns it")
	assert.Contains(t, lines, "storage: refuses a write whose token is below the highest it has seen")
	assert.Contains(t, lines, "replication: redis-2 gets each write after redis-1 applied it (asynchronous)")
	assert.Contains(t, lines, "with the replica: each script goes with WAIT 1 1000; no replica acknowledged: unlock, and try again after the retry delay (checkLockSyncedSlaves)")
}

// TestSentinelControlsNeedAReplica: the Sentinels' sliders apply only with
// a replica (downAfter only with Sentinels), and the protocol lines say
// what the Sentinels do with the scenario's figures.
func TestSentinelControlsNeedAReplica(t *testing.T) {
	plain, err := simtest.Load("redis-gc-pause")
	require.NoError(t, err)
	_, ok := Tab.Slider(redissim.Sentinels.Key).Value(plain)
	assert.False(t, ok, "no replica: no Sentinel")
	sc, err := simtest.Load("redis-sentinel-paused-master")
	require.NoError(t, err)
	n, ok := Tab.Slider(redissim.Sentinels.Key).Value(sc)
	require.True(t, ok)
	assert.Equal(t, 3.0, n)
	d, ok := Tab.Slider(redissim.DownAfter.Key).Value(sc)
	require.True(t, ok)
	assert.Equal(t, 3.0, d)
	assert.Contains(t, redisProtocol(sc), "Sentinel: 3 processes PING redis-1 every second; no valid answer for 3 s: SDOWN; 2 agree: ODOWN; the elected leader sends REPLICAOF NO ONE to redis-2 and +switch-master to the clients, and makes the old master a replica once it is back")
}
