package designtab_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/sim"
	_ "github.com/lockscope/lockscope/widgets/designs" // every design's tab and controls
	"github.com/lockscope/lockscope/widgets/designtab"
)

func TestSlidersRoundTrip(t *testing.T) {
	sc, err := assets.Preset("redis-gc-pause")
	require.NoError(t, err)
	failover, err := assets.Preset("redis-failover")
	require.NoError(t, err)
	for key, spec := range designtab.Sliders {
		assert.Equal(t, key, spec.Key)
		assert.NotEmpty(t, spec.Tip, key)
		base := sc
		if key == "failoverAfter" {
			base = failover // Sentinel's delay needs a replica
		}
		for _, x := range []float64{spec.Min, (spec.Min + spec.Max) / 2, spec.Max} {
			x = spec.Min + float64(int((x-spec.Min)/spec.Step))*spec.Step
			c := base.Clone()
			spec.Apply(c, x)
			got, ok := spec.Value(c)
			require.True(t, ok, key)
			assert.InDelta(t, x, got, 1e-9, "%s at %v", key, x)
			assert.NoError(t, c.Validate(), "%s at %v", key, x)
			assert.NotEmpty(t, spec.Format(x))
		}
	}
}

// The TTL-like sliders are logarithmic: a step near half a second and a
// step near a minute are the same share of the value, and every value in
// the range can be set to two significant digits.
func TestLogSlidersHaveAUsableResolution(t *testing.T) {
	for _, key := range []string{"ttl", "redlockTTL", "zkSession", "etcdLease"} {
		spec := designtab.Sliders[key]
		require.True(t, spec.Log, key)
		lo, hi := spec.Position(spec.Min), spec.Position(spec.Max)
		steps := (hi - lo) / spec.TrackStep()
		assert.Greater(t, steps, 200.0, "%s: the track has room for fine steps", key)
		assert.InDelta(t, spec.Min, spec.ValueAt(lo), 1e-9, key)
		assert.InDelta(t, spec.Max, spec.ValueAt(hi), 1e-9, key)
		prev := spec.ValueAt(lo)
		for p := lo; p <= hi; p += spec.TrackStep() {
			x := spec.ValueAt(p)
			assert.GreaterOrEqual(t, x, prev, "%s: the value grows along the track", key)
			assert.LessOrEqual(t, x-prev, max(spec.Step, 0.1*x+1e-9), "%s at %v: no step jumps more than 10 %%", key, x)
			prev = x
		}
	}
	ttl := designtab.Sliders["ttl"]
	for _, x := range []float64{0.5, 0.75, 1.2, 4.5, 7.5, 10, 20, 44, 60} {
		assert.InDelta(t, x, ttl.ValueAt(ttl.Position(x)), 1e-9, "TTL %v s is on the track", x)
	}
}

func TestPauseSliderEditsPausesAndAddsNone(t *testing.T) {
	sc, err := assets.Preset("redis-gc-pause")
	require.NoError(t, err)
	spec := designtab.Sliders["pause"]
	v, ok := spec.Value(sc)
	require.True(t, ok)
	assert.Equal(t, 15.0, v)
	c := sc.Clone()
	spec.Apply(c, 4)
	assert.Equal(t, sim.Duration(4*time.Second), c.Faults[0].For)

	happy, err := assets.Preset("redis-happy-path")
	require.NoError(t, err)
	_, ok = spec.Value(happy)
	assert.False(t, ok, "nothing to edit: the slider is off")
	c = happy.Clone()
	spec.Apply(c, 4)
	assert.Equal(t, happy.Faults, c.Faults, "and it adds no pause")
	assert.Contains(t, spec.Help(), "adds none")
}

func TestTogglesRoundTrip(t *testing.T) {
	sc, err := assets.Preset("redis-happy-path")
	require.NoError(t, err)
	for key, spec := range designtab.Toggles {
		assert.Equal(t, key, spec.Key)
		assert.NotEmpty(t, spec.Tip, key)
		for _, on := range []bool{true, false} {
			c := sc.Clone()
			spec.Apply(c, on)
			assert.Equal(t, on, spec.Value(c), key)
		}
	}
}

func TestModeTabsAreComplete(t *testing.T) {
	require.NotEmpty(t, designtab.Tabs())
	seen := map[string]bool{}
	for _, tab := range designtab.Tabs() {
		assert.False(t, seen[tab.Mode], "one tab per mode: %s", tab.Mode)
		seen[tab.Mode] = true
		assert.NotEmpty(t, tab.Title)
		assert.NotNil(t, tab.NewState, tab.Mode)
		assert.Contains(t, assets.PresetsFor(tab.Mode), tab.Preset, "%s opens with one of its presets", tab.Mode)
		for _, k := range tab.Sliders {
			assert.Contains(t, designtab.Sliders, k, tab.Mode)
		}
		for _, k := range tab.Toggles {
			assert.Contains(t, designtab.Toggles, k, tab.Mode)
		}
	}
}
