package redis_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
)

// TestRedissonReadWriteLock runs Redisson's RReadWriteLock (rwlock.go):
// readers hold together and keep joining while the hash's mode is read,
// whoever waits, so the writer waits until no reader is left (it
// starves); the writer holds alone; a reader paused past the lease still
// believes it reads when the writer is granted, which the checker counts.
func TestRedissonReadWriteLock(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*sim.Scenario)
		check func(t *testing.T, h []simtest.Hold, sum sim.Summary, rec *sim.Recording)
	}{
		{"readers keep joining while the mode is read: the writer starves", nil, func(t *testing.T, h []simtest.Hold, sum sim.Summary, rec *sim.Recording) {
			require.Len(t, h, 12, "4 clients, 3 rounds")
			var writes []simtest.Hold
			lastRead := time.Duration(0)
			for _, x := range h {
				assert.Equal(t, x.Client != "client-4", x.Read, "%s: a read hold for the readers only", x.Client)
				if x.Read {
					lastRead = max(lastRead, x.To)
				} else {
					writes = append(writes, x)
				}
			}
			require.Len(t, writes, 3)
			assert.GreaterOrEqual(t, writes[0].From, lastRead, "the writer gets in only when the last reader is gone")
			joined := 0
			for _, x := range h {
				if x.Read && x.From > 3*time.Second && x.From < writes[0].From {
					joined++
				}
			}
			assert.Equal(t, 6, joined, "six read holds begin after client-4 asked at 3 s and before it holds")
			for i := 1; i < len(writes); i++ {
				assert.GreaterOrEqual(t, writes[i].From, writes[i-1].To)
			}
			assert.Zero(t, sum.Violations)
			assert.Zero(t, sum.OverlapMs)
			var keys []string
			for _, k := range redis.ViewOf(rec.At(2500 * time.Millisecond)).Servers[0].Keys {
				keys = append(keys, k.Key)
				if k.Key == redis.LockKey {
					assert.True(t, strings.HasPrefix(k.Value, "mode read · "), k.Value)
					assert.Equal(t, "client-1, client-2, client-3", k.Owner)
				}
			}
			require.Len(t, keys, 4, "the hash and one timeout key per reader: %v", keys)
			assert.Contains(t, keys[1], ":rwlock_timeout:1")
			var kept, deleted []time.Duration
			for _, e := range rec.Trace() {
				switch {
				case strings.HasPrefix(e.Note, "returned 0: other holders' fields remain"):
					kept = append(kept, e.At)
				case strings.HasPrefix(e.Note, "returned 1: the last field is gone"):
					deleted = append(deleted, e.At)
				}
			}
			assert.Len(t, kept, 8, "every read unlock but the last finds other fields and keeps the hash")
			require.NotEmpty(t, deleted)
			assert.Greater(t, deleted[0], 12*time.Second, "the hash is first deleted by the last reader's unlock")
			fair := rec.Metrics(rec.End()).Fairness
			assert.Equal(t, []string{"client-4"}, fair.Starved, "the dashboard names the starved writer")
			assert.Positive(t, fair.Inversions, "readers who asked after the writer were granted before it")
		}},
		{"readers 0 is RLock", func(sc *sim.Scenario) { redis.Readers.Set(sc, 0) }, func(t *testing.T, h []simtest.Hold, sum sim.Summary, rec *sim.Recording) {
			simtest.AssertOneHolderAtATime(t, h)
		}},
		{"a reader paused past the lease: the writer is granted while it still reads", func(sc *sim.Scenario) {
			sc.Clients, sc.Rounds, sc.TTL = 2, 1, sim.Duration(10*time.Second)
			redis.Readers.Set(sc, 1)
			sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Pause: "client-1", For: sim.Duration(15 * time.Second)}}
		}, func(t *testing.T, h []simtest.Hold, sum sim.Summary, _ *sim.Recording) {
			simtest.AssertWriterOverPausedReader(t, h, sum)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, rec := simtest.Run(t, simtest.Preset(t, "redis-read-write", tt.edit))
			tt.check(t, simtest.Holds(rec), sum, rec)
		})
	}
}

// TestRedisReadersRefused: the read–write lock is simulated for Redisson
// 4.7.0's client on a lone master only.
func TestRedisReadersRefused(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*sim.Scenario)
	}{
		{"plain client", func(sc *sim.Scenario) { redis.Client.Set(sc, redis.ClientPlain) }},
		{"fair lock", func(sc *sim.Scenario) { redis.Client.Set(sc, redis.ClientRedissonFair) }},
		{"replica", func(sc *sim.Scenario) { redis.Replica.Set(sc, true) }},
		{"reenter", func(sc *sim.Scenario) { redis.Reenter.Set(sc, sim.Duration(time.Second)) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			simtest.AssertRefused(t, "redis-read-write", tt.edit, "readers: RReadWriteLock is simulated with Redisson 4.7.0")
		})
	}
}
