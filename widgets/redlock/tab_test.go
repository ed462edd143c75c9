package redlock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets/designtab"
)

func TestRedlockProtocolFollowsTheScenario(t *testing.T) {
	sc, err := simtest.Load("redlock-happy-path")
	require.NoError(t, err)
	lines := redlockProtocol(sc)
	assert.Equal(t, []string{
		"SET NX PX 10000 on all 5 masters at once, ≤ 500 ms (a silent master: 5 s, go-redis's read timeout, as contextTimeout is off); else unlock all, retry in 50–250 ms, 32 tries",
		"no fencing token: the lock values are random, not ordered (Kleppmann)",
	}, lines)

	sc = sc.Clone()
	sc.TTL = sim.Duration(8 * time.Second)
	redlocksim.Sequential.Set(sc, true)
	redlocksim.Watchdog.Set(sc, true)
	redlocksim.Nodes.Set(sc, 3)
	redlocksim.ContextTimeout.Set(sc, true)
	lines = redlockProtocol(sc)
	assert.Equal(t, "SET NX PX 8000 on the 3 masters in turn, ≤ 400 ms each; else unlock all, retry in 50–250 ms, 32 tries", lines[0])
	assert.Equal(t, "extend: every 2.667 s (ttl/3) PEXPIRE on all 3 if still ours; kept on a majority within the validity", lines[1])
}

func TestRefusalIsTheModesOwnError(t *testing.T) {
	happy, err := simtest.Load("redlock-happy-path")
	require.NoError(t, err)
	on := func(sc *sim.Scenario) { sc.Fencing = true }
	assert.Equal(t, redlocksim.ErrFencing.Error(), designtab.Refusal(happy, on))
	assert.Equal(t, redlocksim.ErrFencing.Error(), Tab.Toggle("fencing").DisabledWhy(happy))
	assert.False(t, happy.Fencing, "the scenario itself is left alone")

	redis, err := simtest.Load("redis-gc-pause")
	require.NoError(t, err)
	assert.Empty(t, designtab.Refusal(redis, on), "Redis takes a fencing token")
	assert.Empty(t, designtab.Toggles["fencing"].DisabledWhy(redis), "the shared fencing toggle is off limits only where the design refuses it")
}

func TestRedlockSlidersRoundTrip(t *testing.T) {
	sc, err := simtest.Load("redlock-happy-path")
	require.NoError(t, err)
	for _, tc := range []struct {
		key   string
		value float64
		check func(sc *sim.Scenario)
		shown string
	}{
		{"nodes", 9, func(sc *sim.Scenario) { assert.Equal(t, 9, redlocksim.Nodes.Of(sc)) }, "9"},
		{"driftFactor", 0.035, func(sc *sim.Scenario) { assert.Equal(t, 0.035, redlocksim.DriftFactor.Of(sc)) }, "0.035"},
		{"clockDrift", 0.02, func(sc *sim.Scenario) { assert.Equal(t, 0.02, sc.ClockDrift) }, "±2 %"},
		{"latency", 600, func(sc *sim.Scenario) { assert.Equal(t, sim.Duration(600*time.Millisecond), sc.Latency) }, "600 ms"},
		{"ttl", 8, func(sc *sim.Scenario) { assert.Equal(t, sim.Duration(8*time.Second), sc.TTL) }, "8 s"},
	} {
		spec := Tab.Slider(tc.key)
		c := sc.Clone()
		spec.Apply(c, tc.value)
		tc.check(c)
		require.NoError(t, c.Validate(), tc.key)
		assert.Equal(t, tc.shown, spec.Format(tc.value), tc.key)
	}
}
