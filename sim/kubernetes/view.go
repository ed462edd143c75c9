package kubernetes

import (
	"time"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// LeaseView is the Lease object as etcd holds it (the member that leads,
// or else the one that has applied most).
type LeaseView struct {
	Exists          bool
	Holder          string        // holderIdentity ("" released)
	DurationSeconds int           // leaseDurationSeconds
	AcquireTime     time.Duration // on the writer's wall clock
	RenewTime       time.Duration
	Transitions     int   // leaseTransitions
	ResourceVersion int64 // the key's mod revision
}

// CandidateView is one candidate's LeaderElector: whether it leads, what
// it last observed and when, on its own clock, that record runs out for
// it.
type CandidateView struct {
	Node     int     // index into Snapshot.Nodes
	Rate     float64 // its clock's rate error (drift): +0.3 runs 30 % fast
	Leading  bool    // it believes it leads
	Told     bool    // it stopped leading; its worker finishes its period
	Renewing bool    // leading: its renew poll has not yet succeeded
	// DeadlineLeft is, while the renew poll runs, the time to its
	// RenewDeadline on this clock.
	DeadlineLeft time.Duration
	Observed     bool   // it has observed a record
	Holder       string // the observed holderIdentity
	Transitions  int    // the observed leaseTransitions
	// Left is the observed record's validity left on this clock:
	// observedTime + leaseDurationSeconds − now (≤ 0: expired for it).
	Left   time.Duration
	Lease  time.Duration // the observed leaseDurationSeconds
	Paused bool
	// Idle is a candidate not in its LeaderElector's Run: not started
	// yet (Started false), between two runs while its process restarts,
	// or exited for good (Over: its rounds are done, or it gave up).
	Idle    bool
	Started bool
	Over    bool
}

// View is the Kubernetes Lease: the object, and every candidate's view of
// it.
type View struct {
	APIServer  int // index into Snapshot.Nodes
	Lease      LeaseView
	Candidates []CandidateView
	Writes     int // updates and creates the apiserver applied
	Conflicts  int // 409s it answered
}

func (kubernetesMode) View(s *sim.Sim, snap *sim.Snapshot) {
	v := &View{APIServer: int(s.Lookup(APIServerName))}
	var best *etcd.Server
	var bestRev int64
	leaderSeen := false
	for _, id := range s.Servers() {
		srv, ok := s.Nodes[id].Proc.(*etcd.Server)
		if !ok {
			continue
		}
		role, detail, words := srv.Shown()
		nv := &snap.Nodes[id]
		nv.Role, nv.Detail, nv.DetailWords = role, detail, words
		if s.Nodes[id].Crashed {
			continue
		}
		_, _, rev, _ := srv.Read(LeaseKey)
		leads := role == etcd.RoleLeader
		if best == nil || (leads && !leaderSeen) || (leads == leaderSeen && rev > bestRev) {
			best, bestRev, leaderSeen = srv, rev, leaderSeen || leads
		}
	}
	if best != nil {
		if val, modRev, _, ok := best.Read(LeaseKey); ok {
			if spec, ok := val.(*LeaseSpec); ok {
				v.Lease = LeaseView{Exists: true, Holder: spec.Holder, DurationSeconds: spec.DurationSeconds,
					AcquireTime: spec.AcquireTime, RenewTime: spec.RenewTime, Transitions: spec.Transitions, ResourceVersion: modRev}
			}
		}
	}
	if v.APIServer >= 0 {
		a := s.Nodes[v.APIServer].Proc.(*APIServer)
		snap.Nodes[v.APIServer].Role = RoleAPIServer
		v.Writes, v.Conflicts = a.writes, a.refused
	}
	for i := range s.Nodes {
		c, ok := s.Nodes[i].Proc.(*elector)
		if !ok {
			continue
		}
		mono := s.Nodes[i].Clock.Mono(s.Now())
		cv := CandidateView{Node: i, Rate: s.Nodes[i].Clock.Rate, Paused: s.Nodes[i].Paused,
			Leading: c.State == sim.StateHolding && !c.Told(), Told: c.State == sim.StateHolding && c.Told(),
			Idle: c.phase == phIdle, Started: c.Round > 0, Over: c.State == sim.StateDone}
		if c.phase == phRenew && c.dlTimer != 0 {
			cv.Renewing, cv.DeadlineLeft = true, c.deadline-mono
		}
		if c.observedTime != 0 || c.observed != (LeaseSpec{}) {
			cv.Observed, cv.Holder, cv.Transitions = true, c.observed.Holder, c.observed.Transitions
			cv.Lease = time.Duration(c.observed.DurationSeconds) * time.Second
			cv.Left = c.validUntil() - mono
		}
		v.Candidates = append(v.Candidates, cv)
	}
	snap.Design = v
}

// DesignName says the view is the Kubernetes Lease's.
func (*View) DesignName() string { return kubernetesMode{}.Name() }

// ViewOf is the snapshot's Kubernetes part; nil in another design's
// snapshot.
func ViewOf(s *sim.Snapshot) *View {
	v, _ := sim.DesignOf[*View](s)
	return v
}
