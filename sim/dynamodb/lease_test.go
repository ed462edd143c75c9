package dynamodb_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/dynamodb"
	"github.com/lockscope/lockscope/sim/simtest"
)

// twoClients is a DynamoDB scenario of two clients, one round each, the
// holder client-1 paused from 2 s for pause (none when 0).
func twoClients(t *testing.T, lease, work, pause time.Duration) *sim.Scenario {
	t.Helper()
	sc, err := sim.Defaults("dynamodb")
	require.NoError(t, err)
	sc.Clients, sc.Rounds, sc.Seed = 2, 1, 1
	sc.TTL, sc.Work, sc.Duration = sim.Duration(lease), sim.Duration(work), sim.Duration(90*time.Second)
	if pause > 0 {
		sc.Faults = []sim.Fault{{At: sim.Duration(2 * time.Second), Pause: "client-1", For: sim.Duration(pause)}}
	}
	require.NoError(t, sc.Validate())
	return sc
}

// The library's figures, as its source has them.
func TestDefaults(t *testing.T) {
	sc, err := sim.Defaults("dynamodb")
	require.NoError(t, err)
	assert.Equal(t, 20*time.Second, sc.TTL.D(), "DEFAULT_LEASE_DURATION")
	assert.Equal(t, 5*time.Second, dynamodb.HeartbeatPeriod.Of(sc).D(), "DEFAULT_HEARTBEAT_PERIOD")
	assert.Equal(t, time.Second, dynamodb.RefreshPeriod.Of(sc).D(), "DEFAULT_BUFFER_MS")
	assert.Zero(t, dynamodb.SafeTime.Of(sc), "no session monitor")
	assert.False(t, sim.TraitsOf("dynamodb").HasTokens(true), "no ordered token, fencing or not")
}

// A waiter takes a silent holder's item over only once it has seen the
// same recordVersionNumber for a whole leaseDuration on its own clock, at
// its first read after that; a holder paused less than the lease
// heartbeats first and is never overtaken.
func TestTakeoverOnlyAfterAWholeLeaseOnTheWaitersClock(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lease, pause time.Duration
		takeover     bool
	}{
		{"10 s lease, paused 15 s", 10 * time.Second, 15 * time.Second, true},
		{"20 s lease, paused 30 s", 20 * time.Second, 30 * time.Second, true},
		{"20 s lease, paused 15 s: the heartbeat after the pause resets the count", 20 * time.Second, 15 * time.Second, false},
		{"20 s lease, no pause: heartbeats every 5 s", 20 * time.Second, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum, _ := simtest.Run(t, twoClients(t, tc.lease, 40*time.Second, tc.pause))
			first, ok := simtest.GrantOf(sum, "client-1")
			require.True(t, ok)
			second, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok, "client-2 gets the lock at last")
			if !tc.takeover {
				assert.Greater(t, second.AtMs, first.AtMs+40000, "client-2 waits for client-1's release")
				assert.Zero(t, sum.Violations)
				return
			}
			assert.GreaterOrEqual(t, second.AtMs, first.AtMs+float64(tc.lease.Milliseconds()), "never before a whole lease")
			assert.Less(t, second.AtMs, first.AtMs+float64(tc.lease.Milliseconds())+1500, "at the first read after it")
			assert.GreaterOrEqual(t, sum.Violations, 1, "the paused holder still believes")
		})
	}
}

// Two clients that find no item both PutItem with attribute_not_exists:
// the table applies one and refuses the other's condition. With 200 ms
// links client-2, which starts 100 ms after client-1, reads before
// client-1's PutItem lands.
func TestConditionalWriteConflict(t *testing.T) {
	sc := twoClients(t, 20*time.Second, time.Second, 0)
	sc.Latency = sim.Duration(200 * time.Millisecond)
	sum, rec := simtest.Run(t, sc)
	require.GreaterOrEqual(t, len(sum.Grants), 1)
	refused := 0
	for _, e := range rec.Trace() {
		if e.Node == dynamodb.TableName && e.Kind.String() == "condition" && strings.Contains(e.Note, string(dynamodb.CondNotExists)) {
			refused++
		}
	}
	assert.Equal(t, 1, refused, "the loser's PutItem fails its condition")
	assert.Zero(t, sum.Violations)
}

// A waiter whose clock runs fast counts the lease out early in real time:
// with a 40 % fast clock the 20 s lease is over in about 14.3 s.
func TestFastClockTakesOverEarly(t *testing.T) {
	sc := simtest.Preset(t, "dynamodb-fast-clock", nil)
	s, err := sim.New(sc)
	require.NoError(t, err)
	rate := s.Nodes[s.Lookup("client-2")].Clock.Rate
	require.Greater(t, rate, 0.35)
	sum, _ := simtest.Run(t, sc)
	g, ok := simtest.GrantOf(sum, "client-2")
	require.True(t, ok)
	want := 20 / (1 + rate) * 1000
	assert.InDelta(t, want, g.AtMs, 1500, "a lease of its own clock, in real time")
	assert.Less(t, g.AtMs, 20000.0)
}

// releaseLock deletes the item with a DeleteItem conditioned on the owner
// and its version: at the end of the happy path the item is gone, and every
// release was applied.
func TestReleaseDeletesTheItem(t *testing.T) {
	sum, rec := simtest.Run(t, simtest.Preset(t, "dynamodb-happy-path", nil))
	assert.Equal(t, 6, sum.Releases)
	released := 0
	for _, e := range rec.Trace() {
		if e.Kind.String() == "release" && strings.Contains(e.Note, "the item is deleted") {
			released++
		}
	}
	assert.Equal(t, 6, released)
	v := dynamodb.ViewOf(rec.At(29 * time.Second))
	require.NotNil(t, v)
	assert.False(t, v.Item.Exists, "no item is left")
}
