package redis_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
)

// TestPlainClientSpeaksTheRecipe: with client plain the client is the
// redis.io single-instance recipe's (SET NX PX, compare-and-delete, with
// the watchdog a compare-and-PEXPIRE every TTL/3) and its key a string;
// without it the same scenario is Redisson's (LOCK, UNLOCK, a hash with a
// hold count).
func TestPlainClientSpeaksTheRecipe(t *testing.T) {
	tests := []struct {
		name             string
		plain, watchdog  bool
		acquire, release sim.Op
		renews           bool
		none             []sim.Op // ops the client never sends
		holds            int      // the key's hold count while held: 0 for a string
	}{
		{"plain", true, false, redis.OpSet, redis.OpCAD, false, []sim.Op{redis.OpLock, redis.OpUnlock, redis.OpPExpire, redis.OpDel}, 0},
		{"plain with watchdog", true, true, redis.OpSet, redis.OpCAD, true, []sim.Op{redis.OpLock, redis.OpUnlock, redis.OpDel}, 0},
		{"redisson", false, false, redis.OpLock, redis.OpUnlock, false, []sim.Op{redis.OpSet, redis.OpCAD, redis.OpPExpire}, 1},
		{"redisson with watchdog", false, true, redis.OpLock, redis.OpUnlock, true, []sim.Op{redis.OpSet, redis.OpCAD}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := simtest.Preset(t, "redis-happy-path", func(sc *sim.Scenario) {
				redis.Client.Set(sc, choice(tt.plain))
				redis.Watchdog.Set(sc, tt.watchdog)
				sc.Clients, sc.Rounds = 1, 1
				sc.TTL = sim.Duration(3 * time.Second)
				sc.Work = sim.Duration(5 * time.Second) // outlives the TTL: the watchdog has to renew
			})
			sum, rec := simtest.Run(t, sc)
			sent := map[string]int{}
			var grant time.Duration
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && e.Kind == sim.TraceSend {
					sent[e.Op]++
				}
				if e.Node == "client-1" && e.Kind.String() == "grant" && grant == 0 {
					grant = e.At
				}
			}
			assert.Positive(t, sent[tt.acquire.String()], "acquires with %s", tt.acquire)
			assert.Equal(t, 1, sent[tt.release.String()], "releases with %s", tt.release)
			if tt.renews {
				assert.Positive(t, sent[redis.OpPExpire.String()], "renews with the compare-and-PEXPIRE")
				assert.Zero(t, sum.ExpiredWhileHeld, "renewed, the key outlives the work")
			} else {
				assert.Zero(t, sent[redis.OpPExpire.String()], "no watchdog, no renewal")
				assert.Positive(t, sum.ExpiredWhileHeld, "the 3 s key expires under the 5 s work")
			}
			for _, op := range tt.none {
				assert.Zero(t, sent[op.String()], "never sends %s", op)
			}
			require.NotZero(t, grant)
			keys := redis.ViewOf(rec.At(grant + time.Second)).Servers[0].Keys
			require.Len(t, keys, 1)
			assert.Equal(t, tt.holds, keys[0].Holds, "a string key has no hold count; Redisson's hash has 1")
		})
	}
}

// TestLockScriptResendPerClient: redis-1 stalls for 6 s under the first
// lock script. The plain client and Redisson 4.7.0 (a lone master: the
// lock script is noRetry since 3.37) time out at 3 s without a resend;
// Redisson 3.16.8 resends it after its retryInterval of 1500 ms.
func TestLockScriptResendPerClient(t *testing.T) {
	tests := []struct {
		client  string
		resends int
		at      time.Duration // the first resend's send
	}{
		{redis.ClientPlain, 0, 0},
		{redis.ClientRedisson, 0, 0},
		{redis.ClientRedisson316, 1, redis.RequestTimeout + redis.RetryInterval},
	}
	for _, tt := range tests {
		t.Run(tt.client, func(t *testing.T) {
			sc := simtest.Preset(t, "redis-happy-path", func(sc *sim.Scenario) {
				redis.Client.Set(sc, tt.client)
				sc.Clients, sc.Rounds = 1, 1
				sc.Faults = []sim.Fault{{At: 0, Pause: "redis-1", For: sim.Duration(2 * redis.RequestTimeout)}}
			})
			_, rec := simtest.Run(t, sc)
			resends := 0
			var sends []time.Duration
			for _, e := range rec.Trace() {
				if e.Kind.String() == "resend" && e.At < 2*redis.RequestTimeout {
					resends++
				}
				if e.Node == "client-1" && e.Kind == sim.TraceSend && (e.Op == redis.OpLock.String() || e.Op == redis.OpSet.String()) {
					sends = append(sends, e.At)
				}
			}
			assert.Equal(t, tt.resends, resends)
			if tt.resends > 0 {
				require.GreaterOrEqual(t, len(sends), 2)
				assert.Equal(t, tt.at, sends[1], "resent retryInterval after the timeout")
			}
		})
	}
}

// choice is the client a test's switch names.
func choice(plain bool) string {
	if plain {
		return redis.ClientPlain
	}
	return redis.ClientRedisson
}
