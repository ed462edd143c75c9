package conformance

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// TestEtcdKeepAliveOnALeaderlessMember cuts a follower of three real etcd
// 3.4 members off from the others and, once it has given up on its
// leader, sends a keepalive on a lease stream opened before the cut (the
// stream requires a leader, as clientv3's lease.go opens it): the member
// holds it (LeaseRenew's waitLeader) until monitorLeader cancels the
// stream with "no leader" after three election timeouts without a leader.
// A new stream on that member is refused at once. The simulator runs the
// same with etcd-3 and client-3 (TestEtcdKeepAliveWaitsForALeader in
// package sim pins its side).
func TestEtcdKeepAliveOnALeaderlessMember(t *testing.T) {
	c := startEtcdCluster(t, true)
	time.Sleep(time.Second)
	leader := c.leader()
	require.GreaterOrEqual(t, leader, 0)
	m := (leader + 1) % 3
	ctx := ctxFor(t, 30*time.Second)
	lease, err := c.cli[m].Grant(ctx, 30)
	require.NoError(t, err)
	lc := pb.NewLeaseClient(c.cli[m].ActiveConnection())
	streamCtx, cancel := context.WithCancel(clientv3.WithRequireLeader(context.Background()))
	t.Cleanup(cancel)
	stream, err := lc.LeaseKeepAlive(streamCtx)
	require.NoError(t, err)
	req := &pb.LeaseKeepAliveRequest{ID: int64(lease.ID)}
	require.NoError(t, stream.Send(req))
	resp, err := stream.Recv()
	require.NoError(t, err)
	require.Equal(t, int64(30), resp.TTL)

	cut := time.Now()
	c.net.isolate(m)
	t.Cleanup(func() { c.net.isolate(-1) })
	require.NoError(t, waitFor(5*time.Second, "the cut-off member gives up on its leader", func() bool {
		_, l, err := c.status(m)
		return err == nil && l < 0
	}))
	lost := time.Now()
	sent := time.Now()
	require.NoError(t, stream.Send(req))
	_, err = stream.Recv()
	ended := time.Now()
	require.Error(t, err, "the held keepalive ends the stream")
	assert.Contains(t, err.Error(), "no leader")

	// A new stream on the leaderless member.
	stream2, err := lc.LeaseKeepAlive(streamCtx)
	require.NoError(t, err)
	opened := time.Now()
	err = stream2.Send(req)
	if err == nil {
		_, err = stream2.Recv()
	}
	refused := time.Since(opened)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no leader")

	// The simulator: etcd-3 and client-3 cut off at 1 s.
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	sc.Clients, sc.Duration, sc.Rounds = 3, sim.Duration(12*time.Second), 1
	sc.TTL, sc.Work = sim.Duration(5*time.Second), sim.Duration(10*time.Second)
	sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Partition: [][]string{{"etcd-3", "client-3"}}, For: sim.Duration(10 * time.Second)}}
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.EnableTrace()
	runSafely(t, s)
	var simLost, simSent, simEnded time.Duration = -1, -1, -1
	for _, e := range s.Trace() {
		switch {
		case simLost < 0 && e.Node == "etcd-3" && e.Kind.String() == "raft" && strings.Contains(e.Note, "pre-vote"):
			simLost = e.At
		case simLost >= 0 && simSent < 0 && e.Node == "client-3" && e.Kind == sim.TraceSend && e.Op == etcd.OpKeepAlive.String():
			simSent = e.At
		case simSent >= 0 && simEnded < 0 && e.Node == "client-3" && e.Kind.String() == "session" && strings.Contains(e.Note, "stream broken"):
			simEnded = e.At
		}
	}
	require.True(t, simLost >= 0 && simSent >= 0 && simEnded >= 0, "the simulated member loses its leader, is sent a keepalive and ends the stream")

	t.Logf("real etcd: leader lost %v after the cut; a keepalive sent then ended the stream %v later, %v after the loss; a new stream was refused in %v. Simulator: a keepalive %v after the loss ended the stream %v later, %v after the loss",
		lost.Sub(cut).Round(time.Millisecond), ended.Sub(sent).Round(time.Millisecond), ended.Sub(lost).Round(time.Millisecond), refused.Round(time.Millisecond),
		simSent-simLost, simEnded-simSent, simEnded-simLost)
	for _, side := range []struct {
		name            string
		held, afterLoss time.Duration
	}{
		{"etcd", ended.Sub(sent), ended.Sub(lost)},
		{"simulator", simEnded - simSent, simEnded - simLost},
	} {
		assert.Greater(t, side.held, 300*time.Millisecond, "%s: the keepalive is held, not refused at once", side.name)
		assert.Less(t, side.afterLoss, 4*etcd.ElectionTimeout, "%s: monitorLeader ends the stream within three election timeouts (and a look's phase)", side.name)
	}
	assert.Less(t, refused, 300*time.Millisecond, "etcd: a new stream on a member without a leader is refused at once")
}

// TestEtcdGrantOnALeaderlessMember sends a LeaseGrant to a cut-off member
// that has lost its leader, through a client that knows only that member,
// and heals the cut a second later. The real member does not refuse it
// with "no leader": raft's node.run stops taking proposals while there is
// no leader (etcd-io/etcd release-3.4 raft/node.go: propc = nil), so the
// Grant waits in Propose until a leader is back or the 7 s request
// timeout ends it with "request timed out" (Unavailable), which clientv3
// resends (a repeatable call). Either way it is granted after the heal and
// within the request timeout. The simulator's member holds it the same
// way (TestEtcdLeaseGrantOnALeaderlessMember in package sim; DIFFERENCES
// 17).
func TestEtcdGrantOnALeaderlessMember(t *testing.T) {
	c := startEtcdCluster(t, true)
	time.Sleep(time.Second)
	leader := c.leader()
	require.GreaterOrEqual(t, leader, 0)
	m := (leader + 1) % 3
	c.net.isolate(m)
	t.Cleanup(func() { c.net.isolate(-1) })
	require.NoError(t, waitFor(5*time.Second, "the cut-off member gives up on its leader", func() bool {
		_, l, err := c.status(m)
		return err == nil && l < 0
	}))
	const healAfter = time.Second
	heal := time.AfterFunc(healAfter, func() { c.net.isolate(-1) })
	t.Cleanup(func() { heal.Stop() })
	start := time.Now()
	lease, err := c.cli[m].Grant(ctxFor(t, 15*time.Second), 10)
	took := time.Since(start)
	t.Logf("real etcd: a Grant sent to a member without a leader was granted %v later (the cut healed after %v)", took.Round(time.Millisecond), healAfter)
	require.NoError(t, err)
	assert.Equal(t, int64(10), lease.TTL)
	assert.GreaterOrEqual(t, took, healAfter, "not refused during the cut, nor granted: it waits")
	assert.Less(t, took, healAfter+8*time.Second, "within the 7 s request timeout and one resend")
}
