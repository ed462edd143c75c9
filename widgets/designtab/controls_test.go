package designtab_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"

	"github.com/lockscope/lockscope/widgets/designtab"
)

// Every tab's slider, the design's rule applied, reads back what it wrote
// across its range, in a scenario the simulator takes.
func TestSlidersRoundTrip(t *testing.T) {
	failover, err := simtest.Load("redis-failover")
	require.NoError(t, err)
	for _, tab := range designtab.Tabs() {
		sc := quietPreset(t, tab.Mode)
		for _, key := range tab.Sliders {
			spec := tab.Slider(key)
			assert.Equal(t, key, spec.Key)
			base := sc
			if key == "failoverAfter" {
				base = failover // Sentinel's delay needs a replica
			}
			if spec.Shown != nil && !spec.Shown(base) {
				base = shownIn(t, tab.Mode, spec) // a slider only some scenarios show: on one of those
			}
			if _, ok := spec.Value(base); !ok {
				continue // nothing to edit (no pause): the slider is off
			}
			for _, x := range []float64{spec.Min, (spec.Min + spec.Max) / 2, spec.Max} {
				x = spec.Min + float64(int((x-spec.Min)/spec.Step))*spec.Step
				c := base.Clone()
				spec.Apply(c, x)
				got, ok := spec.Value(c)
				require.True(t, ok, "%s's %s", tab.Mode, key)
				assert.InDelta(t, x, got, 1e-9, "%s's %s at %v", tab.Mode, key, x)
				assert.NoError(t, c.Validate(), "%s's %s at %v", tab.Mode, key, x)
				assert.NotEmpty(t, spec.Format(x))
			}
		}
	}
}

// shownIn is the first of the mode's presets that shows the slider spec
// (SliderSpec.Shown): ZooKeeper's and etcd's readers, on a read–write
// lock's preset.
func shownIn(t *testing.T, mode string, spec designtab.SliderSpec) *sim.Scenario {
	t.Helper()
	for _, name := range simtest.PresetsFor(mode) {
		sc, err := simtest.Load(name)
		require.NoError(t, err)
		if spec.Shown(sc) {
			return sc
		}
	}
	t.Fatalf("no preset of %s shows %s", mode, spec.Key)
	return nil
}

// quietPreset is the first of the mode's presets with no fault, so that
// every number of clients and servers makes a scenario it can run.
func quietPreset(t *testing.T, mode string) *sim.Scenario {
	t.Helper()
	for _, name := range simtest.PresetsFor(mode) {
		sc, err := simtest.Load(name)
		require.NoError(t, err)
		if len(sc.Faults) == 0 {
			return sc
		}
	}
	t.Fatalf("%s has no preset without faults", mode)
	return nil
}

// A control exists once per scenario field: no two of a tab's controls
// edit the same field, and a design's rule for a shared one keeps its key
// and its reading and writing of the scenario.
func TestOneControlPerField(t *testing.T) {
	for _, tab := range designtab.Tabs() {
		sc, err := simtest.Load(tab.Preset)
		require.NoError(t, err)
		for _, key := range tab.Sliders {
			spec, shared := tab.Slider(key), tab.SliderBase(key)
			assert.Equal(t, key, spec.Key, "%s's rule keeps the key", tab.Mode)
			c, d := sc.Clone(), sc.Clone()
			spec.Apply(c, spec.Min)
			shared.Apply(d, spec.Min)
			assert.Equal(t, d, c, "%s's %s writes the field as the shared control does", tab.Mode, key)
			for _, other := range tab.Sliders {
				o := tab.Slider(other)
				if other == key {
					continue
				}
				e := sc.Clone()
				o.Apply(e, o.Max)
				was, _ := spec.Value(sc)
				now, _ := spec.Value(e)
				assert.Equal(t, was, now, "%s's %s and %s edit the same field", tab.Mode, key, other)
			}
		}
		for _, key := range tab.Toggles {
			spec := tab.Toggle(key)
			for _, other := range tab.Toggles {
				if other == key {
					continue
				}
				e := sc.Clone()
				tab.Toggle(other).Apply(e, !tab.Toggle(other).Value(sc))
				assert.Equal(t, spec.Value(sc), spec.Value(e), "%s's %s and %s edit the same field", tab.Mode, key, other)
			}
		}
		for old, now := range tab.Formerly {
			assert.NotContains(t, designtab.Sliders, old, "%s: %s is no control's key any more", tab.Mode, old)
			assert.NotContains(t, designtab.Toggles, old, "%s: %s is no control's key any more", tab.Mode, old)
			assert.True(t, slices.Contains(tab.Sliders, now) || slices.Contains(tab.Toggles, now), "%s: %s was %s", tab.Mode, now, old)
		}
	}
}

// The TTL-like sliders are logarithmic: a step near half a second and a
// step near a minute are the same share of the value, and every value in
// the range can be set to two significant digits.
func TestLogSlidersHaveAUsableResolution(t *testing.T) {
	for _, tab := range designtab.Tabs() {
		key := tab.Mode + "'s ttl"
		spec := tab.Slider("ttl")
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
	sc, err := simtest.Load("redis-gc-pause")
	require.NoError(t, err)
	spec := designtab.Sliders["pause"]
	v, ok := spec.Value(sc)
	require.True(t, ok)
	assert.Equal(t, 15.0, v)
	c := sc.Clone()
	spec.Apply(c, 4)
	assert.Equal(t, sim.Duration(4*time.Second), c.Faults[0].For)

	happy, err := simtest.Load("redis-happy-path")
	require.NoError(t, err)
	_, ok = spec.Value(happy)
	assert.False(t, ok, "nothing to edit: the slider is off")
	c = happy.Clone()
	spec.Apply(c, 4)
	assert.Equal(t, happy.Faults, c.Faults, "and it adds no pause")
	assert.Contains(t, spec.Help(), "adds none")
}

func TestTogglesRoundTrip(t *testing.T) {
	for _, tab := range designtab.Tabs() {
		sc, err := simtest.Load(tab.Preset)
		require.NoError(t, err)
		for _, key := range tab.Toggles {
			spec := tab.Toggle(key)
			assert.Equal(t, key, spec.Key)
			for _, on := range []bool{true, false} {
				c := sc.Clone()
				spec.Apply(c, on)
				assert.Equal(t, on, spec.Value(c), "%s's %s", tab.Mode, key)
			}
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
		assert.Contains(t, simtest.PresetsFor(tab.Mode), tab.Preset, "%s opens with one of its presets", tab.Mode)
		for _, k := range tab.Sliders {
			assert.NotNil(t, tab.Slider(k).Value, "%s's slider %s is a shared one or its design's option's", tab.Mode, k)
		}
		for _, k := range tab.Toggles {
			assert.NotNil(t, tab.Toggle(k).Value, "%s's toggle %s is a shared one or its design's option's", tab.Mode, k)
		}
	}
}

// A control several tabs share speaks of no design in its own words: a
// design's words for it are its rule (ModeTab.SliderRules, ToggleRules),
// so a new design that lists it without a rule does not show another
// design's help.
func TestSharedControlsNameNoDesign(t *testing.T) {
	designWords := []string{"Redis", "Redisson", "Redlock", "redsync", "ZooKeeper", "Curator", "etcd", "clientv3"}
	tabsListing := map[string]int{}
	listedBy := map[string]designtab.ModeTab{}
	for _, tab := range designtab.Tabs() {
		for _, k := range slices.Concat(tab.Sliders, tab.Toggles) {
			tabsListing[k]++
			listedBy[k] = tab
		}
	}
	shared := 0
	for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
		for k, n := range tabsListing {
			if n < 2 {
				continue
			}
			shared++
			// the control before any design's rule: a shared one, or an
			// option several designs declare under one key (nodes, herd)
			var words []string
			if tab := listedBy[k]; slices.Contains(tab.Sliders, k) {
				s := tab.SliderBase(k)
				words = []string{i18n.In(lang, s.NameKey()), i18n.In(lang, s.Tip())}
			} else {
				c := tab.ToggleBase(k)
				words = []string{i18n.In(lang, c.NameKey()), i18n.In(lang, c.Tip())}
			}
			for _, w := range words {
				assert.NotEmpty(t, w, "%s has no words", k)
				for _, d := range designWords {
					assert.NotContains(t, w, d, "the shared control %s speaks of a design", k)
				}
			}
		}
	}
	assert.GreaterOrEqual(t, shared, 2*8, "the tabs share at least eight controls")
}
