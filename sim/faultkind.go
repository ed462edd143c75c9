package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// FaultKind is what a fault does, and what the timeline marks: a
// scenario's fault has its kind from the one action field its file sets
// (Fault.Kind), and the marks add the heal of a partition, a control
// changed mid-run, a replica promoted and a primary demoted by its design. The names are the
// scenario file's and the trace's, as String writes them.
type FaultKind uint8

const (
	NoFault        FaultKind = iota // a fault with no action field set
	FaultPause                      // a node stops for a while, its timers frozen
	FaultClockJump                  // a node's wall clock jumps
	FaultPartition                  // groups of nodes are cut off from each other
	FaultCrash                      // a node stops and loses its volatile state
	FaultRestart                    // a crashed node boots again
	FaultFailover                   // the design fails a server over
	FaultHeal                       // mark only: a partition heals
	FaultChange                     // mark only: a control changed from here on (a fork)
	FaultPromote                    // mark only: the design promoted a replica
	FaultDemote                     // mark only: the design turned a primary back into a replica
)

var faultKindNames = [...]string{"", "pause", "clockJump", "partition", "crash", "restart", "failover", "heal", "change", "promote", "demote"}

// String is the kind's name in the scenario file and the trace.
func (k FaultKind) String() string {
	if int(k) < len(faultKindNames) {
		return faultKindNames[k]
	}
	return "FaultKind(" + strconv.Itoa(int(k)) + ")"
}

// ParseFaultKind reads a kind's name, in any case ("clockjump"); false
// for a name no kind has.
func ParseFaultKind(s string) (FaultKind, bool) {
	for k := FaultPause; int(k) < len(faultKindNames); k++ {
		if strings.EqualFold(faultKindNames[k], s) {
			return k, true
		}
	}
	return NoFault, false
}

// JoinFaultKinds lists kinds by name, sep between them.
func JoinFaultKinds(kinds []FaultKind, sep string) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	return strings.Join(names, sep)
}

// faultNote is the fault mark's note: a pause's or partition's length, a
// jump's size.
func faultNote(f Fault) string {
	switch f.Kind() {
	case FaultPause:
		return f.For.D().String()
	case FaultClockJump:
		return f.By.D().String()
	case FaultPartition:
		return fmt.Sprintf("%v for %v", f.Partition, f.For.D())
	case FaultRestart:
		if f.Persist {
			return "persist"
		}
	}
	return ""
}
