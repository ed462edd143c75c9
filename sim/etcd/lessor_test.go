package etcd

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// TestNoLeaseDueBeforeLeaseDue: the lessor's look (revokeDue) skips the
// leases before leaseDue, which is right only if no lease is ever due
// before it. After every event of runs in which a client pauses past its
// lease (the leader revokes it, then retries), both do (the leader looks
// at no lease, then grants again: without putLease lowering leaseDue the
// new leases would never expire), the leader crashes (another promotes its
// lessor) and a member restarts empty, every member's leases are due at
// leaseDue or later, and each run does revoke.
func TestNoLeaseDueBeforeLeaseDue(t *testing.T) {
	sec := func(s float64) sim.Duration { return sim.Duration(s * float64(time.Second)) }
	for name, faults := range map[string][]sim.Fault{
		"client paused past its lease": {{When: sim.StepGranted, Pause: sim.ClientName(0), For: sec(25)}},
		"both clients' leases revoked, then granted again": {
			{At: sec(3), Pause: sim.ClientName(0), For: sec(25)},
			{At: sec(3), Pause: sim.ClientName(1), For: sec(25)},
		},
		"leader crashes": {
			{When: sim.StepGranted, Pause: sim.ClientName(0), For: sec(25)},
			{At: sec(4), Crash: memberName(0)},
			{At: sec(9), Restart: memberName(0)},
		},
		"member restarts empty": {
			{At: sec(1), Crash: memberName(1)},
			{At: sec(3), Restart: memberName(1)},
			{When: sim.StepGranted, Pause: sim.ClientName(1), For: sec(20)},
		},
	} {
		t.Run(name, func(t *testing.T) {
			sc, err := sim.Defaults("etcd")
			require.NoError(t, err)
			sc.Faults = faults
			s, err := sim.New(sc)
			require.NoError(t, err)
			retried := false
			for s.Step() {
				for i := range s.Nodes {
					m, ok := s.Nodes[i].Proc.(*Server)
					if !ok {
						continue
					}
					for id, l := range m.leases {
						require.GreaterOrEqual(t, l.dueAt(), m.leaseDue, "%s's lease %x at %v", s.Nodes[i].Name, id, s.Now())
						retried = retried || l.RetryAt > 0
					}
				}
			}
			assert.True(t, retried, "a leader's lessor proposed a revoke")
		})
	}
}
