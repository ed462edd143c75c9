package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
)

func TestRedlockFaultsOfferClockJumpsOnEveryMaster(t *testing.T) {
	sc, err := Preset("redlock-happy-path")
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
	fencing := v.controls.toggles["fencing"]
	require.NotNil(t, fencing)
	assert.True(t, fencing.Disabled())
	assert.False(t, fencing.Checked)
	assert.Contains(t, fencing.TipText(), "Redlock has no fencing token")
	assert.Contains(t, fencing.TipText(), "Kleppmann")
	assert.False(t, w.tab("redis").controls.toggles["fencing"].Disabled(), "the Redis tab's fencing is untouched")

	// The moment both clients hold the lock.
	v.seek(2500 * time.Millisecond)
	assert.Equal(t, []string{"client-1", "client-2"}, widgets.Holders(v.pics.Cluster.Snapshot()))
	assert.Contains(t, shownTexts(v.pics.Cluster), "2 clients believe they hold the lock: client-1, client-2")
	state := shownTexts(v.pics.State)
	assert.Contains(t, state, "validity = 10000 − 500 − 102 = 9398 ms · 7398 ms left")
	assert.Contains(t, state, "validity = 10000 − 500 − 102 = 9398 ms · 9398 ms left")
	assert.Contains(t, v.pics.Protocol.Text, "no fencing token")

	// Masters and driftFactor are this tab's sliders.
	v.toolbar.selectPreset("redlock-happy-path")
	v.seek(time.Second)
	masters := v.slider("nodes")
	require.NotNil(t, masters)
	masters.set(7)
	assert.Equal(t, 7, count(v.ctl.Scenario(), "nodes"))
	view := redlock.ViewOf(v.pics.Cluster.Snapshot())
	require.NotNil(t, view)
	assert.Len(t, view.Masters, 7)
	assert.Equal(t, 4, view.Quorum)
	assert.Equal(t, time.Second, v.ctl.Cursor(), "the cursor stays")

	drift := v.slider("driftFactor")
	v.seek(0) // at 0 a control edits the whole run; later it forks from the cursor
	drift.set(0.05)
	v.seek(time.Second)
	assert.Equal(t, 0.05, number(v.ctl.Scenario(), "driftFactor"))
	assert.Contains(t, shownTexts(v.pics.State), "drift = 10000 × 0.05 + 2", "the tally's arithmetic follows the slider")

	seq := v.controls.toggles["sequential"]
	seq.SetChecked(true)
	assert.True(t, isOn(v.ctl.Scenario(), "sequential"))
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
		sc, err := Preset(tc.preset)
		require.NoError(t, err)
		assert.Contains(t, ScenarioParameters(sc), tc.want, tc.preset)
	}
	plain, err := Preset("redis-gc-pause")
	require.NoError(t, err)
	assert.NotContains(t, ScenarioParameters(plain), "Sentinel", "no replica, no Sentinel")
}

// TestParametersSayCheckValidity: the parameter line names checkValidity
// when the Redlock client looks at Until() before its write, in both
// languages, and leaves it out for redsync's default, which never looks.
func TestParametersSayCheckValidity(t *testing.T) {
	checked, err := Preset("redlock-check-then-pause")
	require.NoError(t, err)
	plain, err := Preset("redlock-slow-work")
	require.NoError(t, err)
	require.True(t, isOn(checked, "checkValidity"))
	require.False(t, isOn(plain, "checkValidity"))
	assert.Contains(t, ScenarioParameters(checked), "checkValidity on")
	assert.NotContains(t, ScenarioParameters(plain), "checkValidity")

	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	assert.Contains(t, ScenarioParameters(checked), "checkValidity 开")
	assert.NotContains(t, ScenarioParameters(plain), "checkValidity")
}
