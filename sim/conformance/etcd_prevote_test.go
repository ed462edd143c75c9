package conformance

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// Ports of the three-member cluster TestEtcdPreVote starts (run.sh checks
// they are free): clients, the members' own peer ports, and the proxies
// the members advertise as their peer URLs.
var (
	clusterClientPorts = []int{22391, 22392, 22393}
	clusterPeerPorts   = []int{22394, 22395, 22396}
	clusterProxyPorts  = []int{22397, 22398, 22399}
)

// peerNet stands between the members of a cluster: every member advertises
// a proxy as its peer URL, so all raft traffic (rafthttp's streams and
// pipeline posts) crosses one. Every raft request names its sender in
// X-Server-From (etcd-io/etcd release-3.4 etcdserver/api/rafthttp
// stream.go and util.go), so the proxy in front of member `to` can cut the
// traffic between one isolated member and the others in both directions:
// a stream carries the dialed member's messages back to the dialer.
type peerNet struct {
	mu       sync.Mutex
	ids      map[string]int // member id in hex -> index
	isolated int            // -1: none
	conns    map[net.Conn]peerConn
	dropped  int // requests dropped at the cut, for the log
}

// peerConn is a proxied connection: to is the member behind the proxy,
// from the dialer's member id (hex) once a request named it.
type peerConn struct {
	from string
	to   int
	up   net.Conn
}

// cut reports whether the isolation covers traffic between the member
// with id from ("" unknown: only the isolated member's own proxy drops it)
// and member to.
func (n *peerNet) cut(from string, to int) bool {
	if n.isolated < 0 {
		return false
	}
	f, known := n.ids[from]
	if !known {
		return to == n.isolated
	}
	return (f == n.isolated) != (to == n.isolated)
}

// isolate cuts member i off from the others (i −1 heals) and closes every
// connection the cut covers.
func (n *peerNet) isolate(i int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.isolated = i
	for c, pc := range n.conns {
		if n.cut(pc.from, pc.to) {
			c.Close()
			pc.up.Close()
			delete(n.conns, c)
		}
	}
}

func (n *peerNet) droppedSoFar() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.dropped
}

// listen serves the proxy of member to on port, forwarding to target.
func (n *peerNet) listen(t *testing.T, to, port int, target string) {
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go n.serve(c, to, target)
		}
	}()
}

// serve reads the requests on one connection, drops the connection when
// a request crosses the cut, and copies the answers back untouched.
func (n *peerNet) serve(c net.Conn, to int, target string) {
	defer c.Close()
	up, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer up.Close()
	n.mu.Lock()
	n.conns[c] = peerConn{to: to, up: up}
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.conns, c)
		n.mu.Unlock()
	}()
	go func() {
		_, _ = io.Copy(c, up)
		c.Close()
	}()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		n.mu.Lock()
		pc, ok := n.conns[c]
		if id := req.Header.Get("X-Server-From"); id != "" {
			pc.from = id
		}
		blocked := !ok || n.cut(pc.from, to)
		if blocked {
			n.dropped++
		}
		n.conns[c] = pc
		n.mu.Unlock()
		if blocked {
			return
		}
		if err := req.Write(up); err != nil {
			return
		}
	}
}

// etcdCluster is three real etcd members behind a peerNet.
type etcdCluster struct {
	t   *testing.T
	net *peerNet
	cli []*clientv3.Client // one per member, pinned to its endpoint
}

// startEtcdCluster boots a new three-member cluster of the run's etcd
// binary (3.4 in Debian) with the given --pre-vote, and waits for a
// leader. Heartbeat 100 ms and election timeout 1 s are etcd's defaults,
// as in the simulator.
func startEtcdCluster(t *testing.T, preVote bool) *etcdCluster {
	t.Helper()
	bin := need(t, "LOCKSCOPE_ETCD_SERVER")
	work := need(t, "LOCKSCOPE_WORK")
	c := &etcdCluster{t: t, net: &peerNet{ids: map[string]int{}, isolated: -1, conns: map[net.Conn]peerConn{}}}
	var initial []string
	for i := range clusterPeerPorts {
		initial = append(initial, fmt.Sprintf("m%d=http://127.0.0.1:%d", i+1, clusterProxyPorts[i]))
		c.net.listen(t, i, clusterProxyPorts[i], "127.0.0.1:"+strconv.Itoa(clusterPeerPorts[i]))
	}
	tag := fmt.Sprintf("prevote-%v", preVote)
	for i := range clusterPeerPorts {
		name := fmt.Sprintf("m%d", i+1)
		client := fmt.Sprintf("http://127.0.0.1:%d", clusterClientPorts[i])
		startProcess(t, "etcd-"+tag+"-"+name, bin, "--name", name,
			"--data-dir", filepath.Join(work, "etcd-"+tag+"-"+name),
			"--listen-client-urls", client, "--advertise-client-urls", client,
			"--listen-peer-urls", fmt.Sprintf("http://127.0.0.1:%d", clusterPeerPorts[i]),
			"--initial-advertise-peer-urls", fmt.Sprintf("http://127.0.0.1:%d", clusterProxyPorts[i]),
			"--initial-cluster", strings.Join(initial, ","), "--initial-cluster-state", "new",
			"--initial-cluster-token", tag, "--pre-vote="+strconv.FormatBool(preVote))
		cli, err := clientv3.New(clientv3.Config{Endpoints: []string{client}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		require.NoError(t, err)
		t.Cleanup(func() { cli.Close() })
		c.cli = append(c.cli, cli)
	}
	require.NoError(t, waitFor(60*time.Second, "a leader in the etcd cluster", func() bool {
		_, _, err := c.status(0)
		return err == nil && c.leader() >= 0
	}))
	ctx := ctxFor(t, 5*time.Second)
	list, err := c.cli[0].MemberList(ctx)
	require.NoError(t, err)
	c.net.mu.Lock()
	for _, m := range list.Members {
		i, err := strconv.Atoi(strings.TrimPrefix(m.Name, "m"))
		require.NoError(t, err)
		c.net.ids[fmt.Sprintf("%x", m.ID)] = i - 1
	}
	c.net.mu.Unlock()
	return c
}

// status is member i's raft term and the index of the leader it knows
// (−1 for none).
func (c *etcdCluster) status(i int) (term uint64, leader int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	st, err := c.cli[i].Status(ctx, c.cli[i].Endpoints()[0])
	if err != nil {
		return 0, -1, err
	}
	leader = -1
	c.net.mu.Lock()
	if l, ok := c.net.ids[fmt.Sprintf("%x", st.Leader)]; ok {
		leader = l
	}
	c.net.mu.Unlock()
	if len(c.net.ids) == 0 && st.Leader != 0 {
		leader = 0 // before the member list is known: some leader
	}
	return st.RaftTerm, leader, nil
}

// leader is the leader member 0 knows, −1 for none.
func (c *etcdCluster) leader() int {
	_, l, err := c.status(0)
	if err != nil {
		return -1
	}
	return l
}

// simPreVote runs the simulator's three members with etcd-3 cut off from
// cutAt for cut and returns the cluster's term before, etcd-3's term at the
// heal, and the cluster's term and leader settleFor after it.
func simPreVote(t *testing.T, preVote bool, cutAt, cut, settle time.Duration) (before, cutTerm, after int64, leaderBefore, leaderAfter string) {
	t.Helper()
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	etcd.PreVote.Set(sc, preVote)
	// One client that is done before the cut, so that, as on the real
	// cluster, no write goes on while the member is away.
	sc.Clients, sc.Rounds, sc.Work = 1, 1, sim.Duration(time.Second)
	sc.Duration = sim.Duration(cutAt + cut + settle + time.Second)
	sc.Faults = []sim.Fault{{At: sim.Duration(cutAt), Partition: [][]string{{"etcd-3"}}, For: sim.Duration(cut)}}
	require.NoError(t, sc.Validate())
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.RunUntil(cutAt)
	b := etcd.ViewOf(s.Snapshot())
	s.RunUntil(cutAt + cut - time.Millisecond)
	cutTerm = etcd.ViewOf(s.Snapshot()).Members[2].Term
	s.RunUntil(cutAt + cut + settle)
	a := etcd.ViewOf(s.Snapshot())
	return b.Term, cutTerm, a.Term, b.Leader, a.Leader
}

// TestEtcdPreVote runs three real etcd 3.4 members with one follower cut
// off from the others for 6 s, once with --pre-vote=false (3.4's default)
// and once with it on (3.5's), and the simulator with preVote the same.
// Off, the cut-off member campaigns for real and raises its term every
// election timeout; when the cut heals, its answer to the leader's
// heartbeat carries that term and the leader steps down (raft.go: a
// message of a higher term), so the cluster moves to a term at least as
// high. On, its pre-votes change no term and the leader stays.
//
// The real member's term while it is cut off cannot be read: etcd 3.4's
// Status reports the term of the last applied entry (server.go setTerm in
// applyEntryNormal), and a candidate applies none. So the real side is
// compared by the cluster's term and leader before the cut and after the
// heal; the simulator's cut-off member is read as well.
func TestEtcdPreVote(t *testing.T) {
	const cut, settle = 6 * time.Second, 4 * time.Second
	for _, preVote := range []bool{false, true} {
		t.Run(fmt.Sprintf("preVote=%v", preVote), func(t *testing.T) {
			c := startEtcdCluster(t, preVote)
			time.Sleep(time.Second) // the followers have heard the leader
			leader := c.leader()
			require.GreaterOrEqual(t, leader, 0)
			m := (leader + 1) % 3 // a follower
			before, _, err := c.status(leader)
			require.NoError(t, err)
			c.net.isolate(m)
			t0 := time.Now()
			// The cut holds once the member no longer knows a leader: with
			// pre-vote off it campaigns, with it on it pre-campaigns.
			require.NoError(t, waitFor(cut, "the cut-off member gives up on its leader", func() bool {
				_, l, err := c.status(m)
				return err == nil && l < 0
			}), "requests dropped at the cut so far: %d", c.net.droppedSoFar())
			time.Sleep(cut - time.Since(t0))
			cutTerm, _, err := c.status(m)
			require.NoError(t, err)
			c.net.isolate(-1)
			// After the heal: with pre-vote off, wait (up to settle) for the
			// cluster to move past the term it had; with it on, watch for
			// the whole of settle that nothing moves.
			var after uint64
			leaderAfter := -1
			healed := time.Now()
			for time.Since(healed) < settle {
				time.Sleep(100 * time.Millisecond)
				term, l, err := c.status((m + 1) % 3)
				if err != nil || l < 0 {
					continue
				}
				after, leaderAfter = term, l
				if !preVote && after > before {
					break
				}
			}
			require.GreaterOrEqual(t, leaderAfter, 0, "a leader after the heal")
			t.Logf("real etcd: %v after the heal", time.Since(healed).Round(time.Millisecond))
			sBefore, sCut, sAfter, sLeader, sLeaderAfter := simPreVote(t, preVote, 3*time.Second, cut, settle)
			t.Logf("real etcd: term %d before, %d on the cut-off member at the heal, %d after (leader m%d, then m%d; %d requests dropped at the cut); simulator: %d, %d, %d (leader %s, then %s)",
				before, cutTerm, after, leader+1, leaderAfter+1, c.net.droppedSoFar(), sBefore, sCut, sAfter, sLeader, sLeaderAfter)
			if !preVote {
				assert.Greater(t, after, before+1, "etcd: the healed member's campaigns raised the cluster's term")
				assert.Equal(t, before, cutTerm, "etcd: Status shows the last applied entry's term")
				assert.Greater(t, sCut, sBefore+1, "simulator: the cut-off member raised its term")
				assert.GreaterOrEqual(t, sAfter, sCut, "simulator: the leader stepped down to the healed member's term")
				return
			}
			assert.Equal(t, before, cutTerm, "etcd: pre-votes change no term")
			assert.Equal(t, before, after, "etcd: the leader stays")
			assert.Equal(t, leader, leaderAfter)
			assert.Equal(t, sBefore, sCut, "simulator: pre-votes change no term")
			assert.Equal(t, sBefore, sAfter, "simulator: the leader stays")
			assert.Equal(t, sLeader, sLeaderAfter)
		})
	}
}
