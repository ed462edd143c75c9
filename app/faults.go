package app

import (
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// DefaultPause is the pause offered on a node when the scenario has no
// pause to take the length from: a long stop-the-world GC.
const DefaultPause = 15 * time.Second

// ClockJump is the size of the clock jumps offered on a node (an NTP step
// or an operator setting the clock).
const ClockJump = 10 * time.Second

// Isolation is how long the node menu cuts a node off from all the others:
// long enough to outlive a 10 s lease or session.
const Isolation = 12 * time.Second

// FaultChoice is one fault the node menu offers; At is filled in with the
// cursor when it is chosen.
type FaultChoice struct {
	Label string
	Fault sim.Fault
}

// FaultChoices lists the faults that apply to node in the state snap
// shows: pause, crash or restart, failover for a master with a replica, a
// partition that cuts it off from every other node, and clock jumps (of
// the wall clock, back and forth, and forward with the monotonic clock).
func FaultChoices(sc *sim.Scenario, snap *sim.Snapshot, node string, pause time.Duration) []FaultChoice {
	var nv *sim.NodeView
	for i := range snap.Nodes {
		if snap.Nodes[i].Name == node {
			nv = &snap.Nodes[i]
		}
	}
	if nv == nil {
		return nil
	}
	if pause <= 0 {
		pause = DefaultPause
	}
	dur := func(d time.Duration) string { return widgets.FormatTime(d) }
	if nv.Crashed {
		if nv.Client {
			return []FaultChoice{{Label: i18n.T("fault.restart"), Fault: sim.Fault{Restart: node}}}
		}
		return []FaultChoice{
			{Label: i18n.T("fault.restartPersist"), Fault: sim.Fault{Restart: node, Persist: true}},
			{Label: i18n.T("fault.restartEmpty"), Fault: sim.Fault{Restart: node}},
		}
	}
	var out []FaultChoice
	what := i18n.F("fault.pause", "t", dur(pause))
	if nv.Paused {
		what = i18n.F("fault.pauseAgain", "t", dur(pause))
	}
	out = append(out, FaultChoice{Label: what, Fault: sim.Fault{Pause: node, For: sim.Duration(pause)}})
	out = append(out, FaultChoice{Label: i18n.T("fault.crash"), Fault: sim.Fault{Crash: node}})
	if !nv.Client {
		if m, err := sim.LookupMode(sc.Mode); err == nil && m.CanFailover(sc, node) == nil {
			out = append(out, FaultChoice{Label: i18n.T("fault.failover"), Fault: sim.Fault{Failover: node}})
		}
	}
	out = append(out, FaultChoice{Label: i18n.F("fault.partition", "t", dur(Isolation)),
		Fault: sim.Fault{Partition: [][]string{{node}}, For: sim.Duration(Isolation)}})
	out = append(out,
		FaultChoice{Label: i18n.F("fault.jumpForward", "t", dur(ClockJump)), Fault: sim.Fault{ClockJump: node, By: sim.Duration(ClockJump)}},
		FaultChoice{Label: i18n.F("fault.jumpBack", "t", dur(ClockJump)), Fault: sim.Fault{ClockJump: node, By: sim.Duration(-ClockJump)}},
		// What a time change never does: the clock timeouts are measured
		// on (Go's time.Since, Java's nanoTime) steps too.
		FaultChoice{Label: i18n.F("fault.stepForward", "t", dur(ClockJump)), Fault: sim.Fault{ClockJump: node, By: sim.Duration(ClockJump), Monotonic: true}},
	)
	return out
}
