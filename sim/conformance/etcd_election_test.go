package conformance

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// The election story both sides play, on one etcd member with 2 s leases
// (the lessor's minimum): A campaigns at 0 and leads at once, B at
// 100 ms and C at 200 ms wait; A proclaims at 500 ms and 1 s, then
// resigns; B leads; B stops at 1.3 s (the simulator pauses client-2, the
// real test orphans B's session: either way its keepalives stop) and its
// lease runs out; C leads; B, awake, tries to write as leader and is
// refused by Proclaim's guard.
const (
	electionTTL     = 2 * time.Second
	electionStagger = 100 * time.Millisecond
	electionPeriod  = 500 * time.Millisecond // the leader's work between two proclaims
	electionPeriods = 2                      // proclaims before a leader resigns
	electionStop    = 1300 * time.Millisecond
	// lessorTick is how often etcd's lessor looks for expired leases:
	// etcd-io/etcd tag v3.4.23 (commit c8b78319672a, the Debian server's
	// release) lease/lessor.go, runLoop: revokeExpiredLeases, then
	// time.After(500 * time.Millisecond); a renewal (Renew, refresh) sets
	// the expiry to now + TTL. The simulator's lessorTick
	// (sim/etcd/etcd.go) is the same; DIFFERENCES 10.
	lessorTick = 500 * time.Millisecond
)

// electionSide is what one side reports of the story.
type electionSide struct {
	leaders  []string      // who led, in order: A, B, C
	revs     []int64       // their keys' create revisions (Election.Rev, the grant's token)
	handoff  time.Duration // from A's Resign to B's Campaign returning
	takeover time.Duration // from B's last lease renewal to C's Campaign returning
	deposed  bool          // B's write as leader after C took over was refused
}

// TestEtcdElection runs clientv3's concurrency.Election (client/v3/
// concurrency/election.go, v3.5.35) against the real etcd and the
// simulated one (sim/etcd/election.go, "use": "election") through the same
// story, and compares who leads in what order, the create revisions, the
// hand-off after Resign and the takeover after the leader's lease expired.
// The real side also runs Observe, whose leader values must follow the
// same order.
func TestEtcdElection(t *testing.T) {
	addr := need(t, "LOCKSCOPE_ETCD")
	real, observed := runElectionReal(t, addr)
	simulated := runElectionSim(t)
	t.Logf("real etcd: leaders %v, revisions %v, hand-off after Resign %v, takeover %v after the leader's last renewal; Observe saw %q",
		real.leaders, real.revs, real.handoff.Round(time.Millisecond), real.takeover.Round(time.Millisecond), observed)
	t.Logf("simulator: leaders %v, revisions %v, hand-off after Resign %v, takeover %v after the leader's last renewal",
		simulated.leaders, simulated.revs, simulated.handoff.Round(time.Millisecond), simulated.takeover.Round(time.Millisecond))

	want := []string{"A", "B", "C"}
	assert.Equal(t, want, real.leaders, "real: leadership passes in campaign (create revision) order")
	assert.Equal(t, real.leaders, simulated.leaders, "simulator vs real: who leads in what order")
	// Observe posts the first-created key's value and every Proclaim of it;
	// B proclaims nothing (its one try is refused).
	assert.Equal(t, []string{"A", "A-1", "A-2", "B", "C", "C-1"}, observed, "real: Observe's leader values")
	for side, got := range map[string]electionSide{"real": real, "simulator": simulated} {
		require.Len(t, got.revs, 3, side)
		assert.Equal(t, []int64{1, 1}, []int64{got.revs[1] - got.revs[0], got.revs[2] - got.revs[1]},
			"%s: each campaigner's key created right after the one before", side)
		assert.True(t, got.deposed, "%s: the deposed leader's guarded write is refused", side)
		// Resign is one Txn; B's watch of A's key fires, its waitDeletes
		// Gets once more and finds no older key: a few round trips.
		assert.Less(t, got.handoff, 100*time.Millisecond, "%s: hand-off after Resign", side)
		// The lease runs out TTL after its last renewal and is revoked at
		// the lessor's next look; the renewal is timed by its answer.
		assert.GreaterOrEqual(t, got.takeover, electionTTL-50*time.Millisecond, "%s: not before the lease ran out", side)
		assert.LessOrEqual(t, got.takeover, electionTTL+lessorTick+300*time.Millisecond, "%s: by the lessor's next look after the TTL", side)
	}
	// The two differ by where the lessor's 500 ms grid falls (DIFFERENCES
	// 10) and by the real member's disk writes (its WAL is synced before
	// an entry commits).
	assert.InDelta(t, real.takeover.Seconds(), simulated.takeover.Seconds(), (lessorTick + 100*time.Millisecond).Seconds(),
		"takeover after the lease expired: real vs simulator within the lessor's tick")
	assert.InDelta(t, real.handoff.Seconds(), simulated.handoff.Seconds(), (50 * time.Millisecond).Seconds(),
		"hand-off after Resign: real vs simulator")
}

// runElectionReal plays the story with concurrency.Election on the real
// server; the second result is what an Observe from a fourth session saw.
func runElectionReal(t *testing.T, addr string) (electionSide, []string) {
	t.Helper()
	ctx := ctxFor(t, time.Minute)
	newSession := func(ttl time.Duration) *concurrency.Session {
		cli, err := clientv3.New(clientv3.Config{Endpoints: []string{addr}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		require.NoError(t, err)
		t.Cleanup(func() { cli.Close() })
		s, err := concurrency.NewSession(cli, concurrency.WithTTL(int(ttl/time.Second)))
		require.NoError(t, err)
		return s
	}
	pfx := fmt.Sprintf("/lockscope-%d/election", time.Now().UnixNano())
	names := []string{"A", "B", "C"}
	sessions := make([]*concurrency.Session, len(names))
	elections := make([]*concurrency.Election, len(names))
	for i := range names {
		sessions[i] = newSession(electionTTL)
		elections[i] = concurrency.NewElection(sessions[i], pfx)
	}
	for _, i := range []int{0, 2} { // B's session is orphaned below
		t.Cleanup(func() { sessions[i].Close() })
	}

	// The observer: a session of its own, watching from before the first
	// campaign.
	var mu sync.Mutex
	var observed []string
	octx, stopObserving := context.WithCancel(ctx)
	t.Cleanup(stopObserving)
	obs := concurrency.NewElection(newSession(10*time.Second), pfx).Observe(octx)
	observerDone := make(chan struct{})
	go func() {
		defer close(observerDone)
		for resp := range obs {
			mu.Lock()
			observed = append(observed, string(resp.Kvs[0].Value))
			mu.Unlock()
		}
	}()
	time.Sleep(50 * time.Millisecond) // its Get and Watch are in place

	type elected struct {
		who int
		at  time.Time
	}
	won := make(chan elected, len(names))
	t0 := time.Now()
	at := func(d time.Duration) { time.Sleep(time.Until(t0.Add(d))) }
	for i := range names {
		go func() {
			at(time.Duration(i) * electionStagger)
			if elections[i].Campaign(ctx, names[i]) == nil {
				won <- elected{i, time.Now()}
			}
		}()
	}
	var out electionSide
	next := func(within time.Duration) elected {
		select {
		case e := <-won:
			out.leaders = append(out.leaders, names[e.who])
			out.revs = append(out.revs, elections[e.who].Rev())
			return e
		case <-time.After(within):
			t.Fatalf("no Campaign returned within %v after %v", within, out.leaders)
			return elected{}
		}
	}
	require.Equal(t, 0, next(time.Second).who, "A, the first to campaign, leads")
	for p := 1; p <= electionPeriods; p++ {
		at(time.Duration(p) * electionPeriod)
		require.NoError(t, elections[0].Proclaim(ctx, fmt.Sprintf("A-%d", p)))
	}
	resigned := time.Now()
	require.NoError(t, elections[0].Resign(ctx))
	b := next(time.Second)
	require.Equal(t, 1, b.who, "B, the next in create order, leads after A resigns")
	out.handoff = b.at.Sub(resigned)

	// B stops: no more keepalives. One last renewal, timed, so the lease's
	// expiry is known: TTL after the renewal reached the server.
	at(electionStop)
	sessions[1].Orphan()
	ka, err := sessions[1].Client().KeepAliveOnce(ctx, sessions[1].Lease())
	require.NoError(t, err)
	require.Equal(t, int64(electionTTL/time.Second), ka.TTL)
	renewed := time.Now()
	c := next(electionTTL + lessorTick + 2*time.Second)
	require.Equal(t, 2, c.who, "C leads once B's lease has expired")
	out.takeover = c.at.Sub(renewed)

	// B believes it leads; its Proclaim is a Txn on its key's create
	// revision, which is gone with the lease.
	err = elections[1].Proclaim(ctx, "B-1")
	out.deposed = errors.Is(err, concurrency.ErrElectionNotLeader)
	require.NoError(t, elections[2].Proclaim(ctx, "C-1"))
	require.NoError(t, elections[2].Resign(ctx))

	time.Sleep(100 * time.Millisecond) // the observer's last events
	stopObserving()
	<-observerDone
	mu.Lock()
	defer mu.Unlock()
	return out, observed
}

// runElectionSim plays the story on one simulated member: three clients
// in election use, client-2 paused while it leads, fencing on (the
// leader's write is the Txn on its key's create revision that Proclaim
// sends).
func runElectionSim(t *testing.T) electionSide {
	t.Helper()
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	etcd.Nodes.Set(sc, 1)
	etcd.Use.Set(sc, etcd.UseElection)
	etcd.LeadPeriods.Set(sc, electionPeriods)
	sc.Clients, sc.Rounds, sc.Stagger = 3, 1, sim.Duration(electionStagger)
	sc.TTL, sc.Work, sc.Fencing = sim.Duration(electionTTL), sim.Duration(electionPeriod), true
	sc.Latency, sc.Jitter = sim.Duration(time.Millisecond), 0
	sc.Duration = sim.Duration(8 * time.Second)
	sc.Faults = []sim.Fault{{At: sim.Duration(electionStop), Pause: "client-2", For: sim.Duration(3 * time.Second)}}
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.EnableTrace()
	runSafely(t, s)

	name := map[string]string{"client-1": "A", "client-2": "B", "client-3": "C"}
	var out electionSide
	sum := s.Check.Summary(s.End())
	grantAt := map[string]time.Duration{}
	for _, g := range sum.Grants {
		out.leaders = append(out.leaders, name[g.Client])
		out.revs = append(out.revs, g.Token)
		grantAt[g.Client] = time.Duration(g.AtMs * float64(time.Millisecond))
	}
	var resigned, renewed time.Duration = -1, -1
	for _, e := range s.Trace() {
		switch {
		case resigned < 0 && e.Node == "client-1" && e.Kind.String() == "lock" && e.Op == "Resign":
			resigned = e.At
		case e.At < electionStop && e.Node == "etcd-1" && e.Kind == sim.TraceRecv && e.Peer == "client-2" && e.Op == etcd.OpKeepAlive.String():
			renewed = e.At
		case e.Node == "etcd-1" && e.Kind == sim.TraceWrite && e.Peer == "client-2" && e.At > grantAt["client-3"]:
			out.deposed = e.Op == "rejected"
		}
	}
	require.True(t, resigned >= 0 && renewed >= 0, "the simulated leader resigns, and client-2 renews its lease before its pause")
	out.handoff = grantAt["client-2"] - resigned
	out.takeover = grantAt["client-3"] - renewed
	return out
}
