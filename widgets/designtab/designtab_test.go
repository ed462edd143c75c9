package designtab

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// withRegistry runs the test on empty lists of tabs and controls, and puts
// the real ones back after it.
func withRegistry(t *testing.T) {
	t.Helper()
	tabs, sliders, toggles := registered, Sliders, Toggles
	registered, Sliders, Toggles = map[string]ModeTab{}, map[string]SliderSpec{}, map[string]ToggleSpec{}
	t.Cleanup(func() { registered, Sliders, Toggles = tabs, sliders, toggles })
}

// The window lists the tabs in the simulator's order of its designs,
// whatever order the tabs were added in, and refuses a tab whose mode the
// simulator does not have.
func TestTabsFollowTheSimulatorsPlaces(t *testing.T) {
	withRegistry(t)
	modes := sim.ModeNames()
	assert.NotEmpty(t, modes)
	assert.PanicsWithValue(t, `designtab: the tab of mode no-such-design has no simulator side: unknown mode "no-such-design" (one of `+strings.Join(modes, ", ")+`)`,
		func() { Register(ModeTab{Mode: "no-such-design"}, nil, nil) })
	for i := len(modes) - 1; i >= 0; i-- {
		Register(ModeTab{Mode: modes[i]}, nil, nil)
	}
	var got []string
	for _, tab := range Tabs() {
		got = append(got, tab.Mode)
	}
	assert.Equal(t, modes, got)
}

// A mode has one tab and a control's key one control: a second of either
// is refused, as is a tab without a mode.
func TestRegisterRefusesTwiceTheSame(t *testing.T) {
	withRegistry(t)
	modes := sim.ModeNames()
	require.GreaterOrEqual(t, len(modes), 3)
	Register(ModeTab{Mode: modes[0]}, map[string]SliderSpec{"s": {Key: "s"}}, map[string]ToggleSpec{"t": {Key: "t"}})
	assert.Contains(t, Sliders, "s")
	assert.Contains(t, Toggles, "t")
	assert.Panics(t, func() { Register(ModeTab{Mode: modes[0]}, nil, nil) }, "a second tab for a mode")
	assert.Panics(t, func() { Register(ModeTab{Mode: modes[1]}, map[string]SliderSpec{"s": {Key: "s"}}, nil) }, "a slider's key again")
	assert.Panics(t, func() { Register(ModeTab{Mode: modes[2]}, nil, map[string]ToggleSpec{"t": {Key: "t"}}) }, "a toggle's key again")
	assert.Panics(t, func() { Register(ModeTab{}, nil, nil) }, "a tab without a mode")
}
