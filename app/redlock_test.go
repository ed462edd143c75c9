package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

func TestRedlockProtocolFollowsTheScenario(t *testing.T) {
	sc, err := assets.Preset("redlock-happy-path")
	require.NoError(t, err)
	lines := redlockProtocol(sc)
	assert.Equal(t, []string{
		"SET NX PX 10000 on all 5 masters at once, ≤ 500 ms (a silent master: 5 s, go-redis's read timeout, as contextTimeout is off); else unlock all, retry in 50–250 ms, 32 tries",
		"no fencing token: the lock values are random, not ordered (Kleppmann)",
	}, lines)

	sc = sc.Clone()
	sc.Sequential, sc.Watchdog, sc.Nodes, sc.TTL = true, true, 3, sim.Duration(8*time.Second)
	sc.ContextTimeout = true
	lines = redlockProtocol(sc)
	assert.Equal(t, "SET NX PX 8000 on the 3 masters in turn, ≤ 400 ms each; else unlock all, retry in 50–250 ms, 32 tries", lines[0])
	assert.Equal(t, "extend: every 2.667 s (ttl/3) PEXPIRE on all 3 if still ours; kept on a majority within the validity", lines[1])
}

func TestRefusalIsTheModesOwnError(t *testing.T) {
	happy, err := assets.Preset("redlock-happy-path")
	require.NoError(t, err)
	on := func(sc *sim.Scenario) { sc.Fencing = true }
	assert.Equal(t, redlock.ErrRedlockFencing.Error(), designtab.Refusal(happy, on))
	assert.Equal(t, redlock.ErrRedlockFencing.Error(), designtab.Toggles["redlockFencing"].DisabledWhy(happy))
	assert.False(t, happy.Fencing, "the scenario itself is left alone")

	redis, err := assets.Preset("redis-gc-pause")
	require.NoError(t, err)
	assert.Empty(t, designtab.Refusal(redis, on), "Redis takes a fencing token")
	assert.Empty(t, designtab.Toggles["fencing"].DisabledWhy(redis), "a toggle without Disabled always applies")
}

func TestRedlockSlidersRoundTrip(t *testing.T) {
	sc, err := assets.Preset("redlock-happy-path")
	require.NoError(t, err)
	for _, tc := range []struct {
		key   string
		value float64
		check func(sc *sim.Scenario)
		shown string
	}{
		{"redlockNodes", 9, func(sc *sim.Scenario) { assert.Equal(t, 9, sc.Nodes) }, "9"},
		{"redlockDriftFactor", 0.035, func(sc *sim.Scenario) { assert.Equal(t, 0.035, sc.DriftFactor) }, "0.035"},
		{"redlockClockDrift", 0.02, func(sc *sim.Scenario) { assert.Equal(t, 0.02, sc.ClockDrift) }, "±2 %"},
		{"redlockLatency", 600, func(sc *sim.Scenario) { assert.Equal(t, sim.Duration(600*time.Millisecond), sc.Latency) }, "600 ms"},
		{"redlockTTL", 8, func(sc *sim.Scenario) { assert.Equal(t, sim.Duration(8*time.Second), sc.TTL) }, "8 s"},
	} {
		spec := designtab.Sliders[tc.key]
		c := sc.Clone()
		spec.Apply(c, tc.value)
		tc.check(c)
		require.NoError(t, c.Validate(), tc.key)
		assert.Equal(t, tc.shown, spec.Format(tc.value), tc.key)
	}
}

func TestRedlockFaultsOfferClockJumpsOnEveryMaster(t *testing.T) {
	sc, err := assets.Preset("redlock-happy-path")
	require.NoError(t, err)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	snap := rec.At(time.Second)
	for _, m := range sc.ServerNames() {
		var labels []string
		for _, ch := range FaultChoices(sc, snap, m, 0) {
			labels = append(labels, ch.Label)
		}
		assert.Contains(t, labels, "Clock jumps forward 10.000 s", m)
		assert.Contains(t, labels, "Clock jumps back 10.000 s", m)
		assert.NotContains(t, labels, "Fail over to the replica", "%s: Redlock masters have no replica", m)
	}
}

func TestWindowRedlockTab(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	v := w.tab("redlock")
	require.NotNil(t, v, "the Redlock tab")
	assert.Equal(t, "redlock-clock-jump", v.ctl.Origin(), "it opens with Kleppmann's clock jump")
	w.appTabs.SelectIndex(w.index(v))
	assert.Equal(t, "redlock", w.CurrentMode())

	// The fencing toggle is there, greyed, and says why.
	fencing := v.toggles["redlockFencing"]
	require.NotNil(t, fencing)
	assert.True(t, fencing.Disabled())
	assert.False(t, fencing.Checked)
	assert.Contains(t, fencing.TipText(), "Redlock has no fencing token")
	assert.Contains(t, fencing.TipText(), "Kleppmann")
	assert.False(t, w.tab("redis").toggles["fencing"].Disabled(), "the Redis tab's fencing is untouched")

	// The moment both clients hold the lock.
	v.seek(2500 * time.Millisecond)
	assert.Equal(t, []string{"client-1", "client-2"}, widgets.Holders(v.pics.Cluster.Snapshot()))
	assert.Contains(t, shownTexts(v.pics.Cluster), "2 clients believe they hold the lock: client-1, client-2")
	state := shownTexts(v.pics.State)
	assert.Contains(t, state, "validity = 10000 − 500 − 102 = 9398 ms · 7398 ms left")
	assert.Contains(t, state, "validity = 10000 − 500 − 102 = 9398 ms · 9398 ms left")
	assert.Contains(t, v.pics.Protocol.Text, "no fencing token")

	// Masters and driftFactor are this tab's sliders.
	v.selectPreset("redlock-happy-path")
	v.seek(time.Second)
	masters := v.slider("redlockNodes")
	require.NotNil(t, masters)
	masters.set(7)
	assert.Equal(t, 7, v.ctl.Scenario().Nodes)
	view := redlock.ViewOf(v.pics.Cluster.Snapshot())
	require.NotNil(t, view)
	assert.Len(t, view.Masters, 7)
	assert.Equal(t, 4, view.Quorum)
	assert.Equal(t, time.Second, v.ctl.Cursor(), "the cursor stays")

	drift := v.slider("redlockDriftFactor")
	v.seek(0) // at 0 a control edits the whole run; later it forks from the cursor
	drift.set(0.05)
	v.seek(time.Second)
	assert.Equal(t, 0.05, v.ctl.Scenario().DriftFactor)
	assert.Contains(t, shownTexts(v.pics.State), "drift = 10000 × 0.05 + 2", "the tally's arithmetic follows the slider")

	seq := v.toggles["redlockSequential"]
	seq.SetChecked(true)
	assert.True(t, v.ctl.Scenario().Sequential)
	assert.Contains(t, shownTexts(v.pics.State), "one master after another")
	assert.True(t, fencing.Disabled(), "still no fencing after other edits")
}

// TestParametersNameTheIssue14Fields: the parameter line under a run's
// title says how go-redis, Sentinel and raft are set up.
func TestParametersNameTheIssue14Fields(t *testing.T) {
	for _, tc := range []struct{ preset, want string }{
		{"redlock-silent-masters", "contextTimeout off"},
		{"redlock-clock-jump", "contextTimeout on"},
		{"redis-failover", "Sentinel promotes after 3 s"},
		{"etcd-happy-path", "pre-vote on"},
	} {
		sc, err := assets.Preset(tc.preset)
		require.NoError(t, err)
		assert.Contains(t, ScenarioParameters(sc), tc.want, tc.preset)
	}
	plain, err := assets.Preset("redis-gc-pause")
	require.NoError(t, err)
	assert.NotContains(t, ScenarioParameters(plain), "Sentinel", "no replica, no Sentinel")
}

// TestParametersSayCheckValidity: the parameter line names checkValidity
// when the Redlock client looks at Until() before its write, in both
// languages, and leaves it out for redsync's default, which never looks.
func TestParametersSayCheckValidity(t *testing.T) {
	checked, err := assets.Preset("redlock-check-then-pause")
	require.NoError(t, err)
	plain, err := assets.Preset("redlock-slow-work")
	require.NoError(t, err)
	require.True(t, checked.CheckValidity)
	require.False(t, plain.CheckValidity)
	assert.Contains(t, ScenarioParameters(checked), "checkValidity on")
	assert.NotContains(t, ScenarioParameters(plain), "checkValidity")

	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	assert.Contains(t, ScenarioParameters(checked), "checkValidity 开")
	assert.NotContains(t, ScenarioParameters(plain), "checkValidity")
}
