package widgets

import "github.com/lockscope/lockscope/sim"

// OnShow is the snapshot a widget shows. A snapshot is one instant of one
// run, so being handed the same one again (a redraw of the status line, a
// paused frame) has nothing new to draw; a new instant always does.
type OnShow struct{ snap *sim.Snapshot }

// Take says whether s is new to the widget, and keeps it when it is.
func (o *OnShow) Take(s *sim.Snapshot) bool {
	if s != nil && s == o.snap {
		return false
	}
	o.snap = s
	return true
}

// Shown is the snapshot the widget shows, nil before the first.
func (o *OnShow) Shown() *sim.Snapshot { return o.snap }
