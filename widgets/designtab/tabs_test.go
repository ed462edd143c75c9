package designtab_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lockscope/lockscope/sim"

	"github.com/lockscope/lockscope/widgets/designtab"
)

// The window's tabs are the simulator's designs, one each, in the order
// the simulator lists them: the two registrations cannot drift apart.
func TestModeTabsFollowTheSimulatorsModes(t *testing.T) {
	var tabs []string
	for _, tab := range designtab.Tabs() {
		tabs = append(tabs, tab.Mode)
	}
	assert.Equal(t, sim.ModeNames(), tabs)
	for _, tab := range designtab.Tabs() {
		for _, k := range tab.Sliders {
			assert.NotNil(t, tab.Slider(k).Value, "%s's slider %s", tab.Mode, k)
		}
		for _, k := range tab.Toggles {
			assert.NotNil(t, tab.Toggle(k).Value, "%s's toggle %s", tab.Mode, k)
		}
	}
}
