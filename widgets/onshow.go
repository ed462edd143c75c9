package widgets

import "github.com/lockscope/lockscope/sim"

// onShow is the snapshot a widget shows. A snapshot is one instant of one
// run, so being handed the same one again (a redraw of the status line, a
// paused frame) has nothing new to draw; a new instant always does.
type onShow struct{ snap *sim.Snapshot }

// take says whether s is new to the widget, and keeps it when it is.
func (o *onShow) take(s *sim.Snapshot) bool {
	if s != nil && s == o.snap {
		return false
	}
	o.snap = s
	return true
}
