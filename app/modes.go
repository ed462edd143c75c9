package app

import (
	"strconv"
	"time"

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

// ModeTab describes one mode's tab: its state widget, the preset it opens
// with, and the keys of the Sliders and Toggles that apply to it. A
// design's tab lives in the design's own file (app/redis.go, redlock.go,
// zookeeper.go, etcd.go) with its own sliders, toggles and protocol lines,
// and is one entry in ModeTabs.
type ModeTab struct {
	Mode       string // the sim mode it runs
	Title      string // the tab's title
	StateTitle string // translation key of the title over the state picture
	Preset     string // the preset shown at start
	NewState   func() StateView
	Sliders    []string // keys into Sliders
	Toggles    []string // keys into Toggles
	// Protocol spells out, for the scenario on show, what the clients and
	// servers actually send, under the state picture; nil for none.
	Protocol func(sc *sim.Scenario) []string
}

// ModeTabs lists the tabs in window order. A tab appears only when its
// mode is registered with the simulator.
var ModeTabs = []ModeTab{redisModeTab, redlockModeTab, zookeeperModeTab, etcdModeTab}

// shortTime writes a round duration without trailing zeros ("10 s",
// "100 ms") and any other to the millisecond.
func shortTime(d time.Duration) string {
	switch {
	case d >= time.Second && d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + " s"
	case d < time.Second && d%time.Millisecond == 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return widgets.FormatTime(d)
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
