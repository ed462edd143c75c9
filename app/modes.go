package app

import (
	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// StateView is a mode's own picture of the lock (the Redis key with its
// TTL bar, the Redlock vote tally, the znode tree, the etcd keys): a widget
// drawn from a snapshot.
type StateView interface {
	fyne.CanvasObject
	// SetSnapshot shows the lock state of the snapshot's instant.
	SetSnapshot(s *sim.Snapshot)
}

// ModeTab describes one mode's tab. Adding a mode's tab is one entry in
// ModeTabs: its state widget, the preset it opens with, and the keys of
// the Sliders and Toggles that apply to it.
type ModeTab struct {
	Mode       string // the sim mode it runs
	Title      string // the tab's title
	StateTitle string // the title over the state picture
	Preset     string // the preset shown at start
	NewState   func() StateView
	Sliders    []string // keys into Sliders
	Toggles    []string // keys into Toggles
}

// ModeTabs lists the tabs in window order. A tab appears only when its
// mode is registered with the simulator.
var ModeTabs = []ModeTab{
	{
		Mode:       "redis",
		Title:      "Redis",
		StateTitle: "Lock key on each Redis server (TTL by the server's clock)",
		Preset:     "redis-gc-pause",
		NewState:   func() StateView { return widgets.NewRedisKeys() },
		Sliders:    []string{"ttl", "work", "pause", "latency", "clients"},
		Toggles:    []string{"watchdog", "fencing", "replica"},
	},
}

// availableTabs are the ModeTabs whose mode the simulator knows.
func availableTabs() []ModeTab {
	var out []ModeTab
	for _, t := range ModeTabs {
		if _, err := sim.LookupMode(t.Mode); err == nil {
			out = append(out, t)
		}
	}
	return out
}
