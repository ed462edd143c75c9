package zookeeper

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// ZNode is one child of the lock znode.
type ZNode struct {
	Name      string
	Seq       int64
	Owner     string
	Session   int64 // the owner's session id: creating server's id in the top byte (print with %#x)
	Ephemeral bool
	Holder    bool
	// Read is a node of the read–write lock's read lock (__READ__): it
	// holds with the others before the first write node (rwlock.go).
	Read  bool
	Czxid int64 // zxid of the transaction that created it
}

// View is the ZooKeeper ensemble's lock directory.
type View struct {
	Parent   string
	Leader   string
	Zxid     int64 // last committed zxid: epoch in the high 32 bits (print with %#x)
	Children []ZNode
	// ReadWrite: the clients use Curator's read–write lock (readers), so
	// several read nodes may hold at once.
	ReadWrite bool
	Watches   []sim.Watch
	Epoch     int64        // the established leader's epoch
	Electing  bool         // no established leader: writes stall
	Quorum    int          // servers a write needs
	Servers   []ServerView // in zk-1…zk-N order
	Sessions  []ZSession   // the replicated session table
}

// A server's roles in the ensemble, as the cluster view shows them.
var (
	RoleLeader   = sim.NewRole("leader")
	RoleFollower = sim.NewRole("follower")
	RoleLooking  = sim.NewRole("looking")
)

// ServerView is one ZooKeeper server's place in the ensemble.
type ServerView struct {
	Node      int      // index into Snapshot.Nodes
	Role      sim.Role // RoleLeader, RoleFollower, RoleLooking; NoRole when down
	Epoch     int64
	LastZxid  int64 // last transaction in its log
	Committed int64 // last transaction it has applied
	Serving   bool  // accepts client connections
}

// ZSession is a session as the ensemble knows it.
type ZSession struct {
	ID      int64
	Owner   string
	Timeout time.Duration
	Left    time.Duration // until the leader expires it; 0 without a leader
	Closing bool          // expired, its closeSession not yet committed
}

func (s *zkServer) detail() (string, sim.Words) {
	if s.state == zkLooking {
		return fmt.Sprintf("looking · round %d · zxid %#x", s.round, s.lastLogged()),
			sim.Say("detail.zk.looking", "round", strconv.FormatInt(s.round, 10), "zxid", fmt.Sprintf("%#x", s.lastLogged()))
	}
	return fmt.Sprintf("epoch %d · zxid %#x", s.currentEpoch, s.lastCommitted()),
		sim.Say("detail.zk.server", "epoch", strconv.FormatInt(s.currentEpoch, 10), "zxid", fmt.Sprintf("%#x", s.lastCommitted()))
}

// View fills the ZooKeeper picture from the established leader (or, during
// an election, the live server that has committed the most).
func (zkMode) View(s *sim.Sim, snap *sim.Snapshot) {
	v := &View{Parent: LockPath, Quorum: zkQuorum(Nodes.Of(s.Scenario))}
	var ref, leader *zkServer
	leaderID := sim.None
	for _, id := range s.Servers() {
		srv := s.Nodes[id].Proc.(*zkServer)
		down := s.Nodes[id].Crashed
		role := sim.NoRole
		if !down {
			switch srv.state {
			case zkLeading:
				role = RoleLeader
			case zkFollowing:
				role = RoleFollower
			default:
				role = RoleLooking
			}
		}
		snap.Nodes[id].Role = role
		snap.Nodes[id].Detail, snap.Nodes[id].DetailWords = srv.detail()
		v.Servers = append(v.Servers, ServerView{Node: int(id), Role: role, Epoch: srv.currentEpoch,
			LastZxid: srv.lastLogged(), Committed: srv.lastCommitted(), Serving: srv.serving && !down})
		if down {
			continue
		}
		if srv.state == zkLeading && srv.established {
			leader, leaderID = srv, id
		}
		if ref == nil || srv.lastCommitted() > ref.lastCommitted() {
			ref = srv
		}
	}
	if leader != nil {
		ref = leader
		v.Leader = s.Nodes[leaderID].Name
		v.Epoch = leader.currentEpoch
	} else {
		v.Electing = true
	}
	if ref != nil {
		v.Zxid = ref.lastCommitted()
		nodes := append([]zkZnode(nil), ref.tree.nodes...)
		sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].Seq < nodes[j].Seq })
		v.ReadWrite = Readers.IsOn(s.Scenario)
		holders := 1 // the lowest, or the read–write lock's holders (rwlock.go)
		if v.ReadWrite {
			holders = len(ref.tree.holders())
		}
		for i, z := range nodes {
			v.Children = append(v.Children, ZNode{Name: z.Name, Seq: z.Seq, Owner: ref.tree.owner(z.Session),
				Session: z.Session, Ephemeral: true, Holder: i < holders, Read: strings.Contains(z.Name, ReadName), Czxid: z.Czxid})
		}
		for _, si := range ref.tree.sessions {
			zs := ZSession{ID: si.ID, Owner: si.Owner, Timeout: si.Timeout}
			if leader != nil {
				mono := s.Nodes[leaderID].Clock.Mono(s.Now())
				for _, t := range leader.tracker {
					if t.id == si.ID {
						zs.Left, zs.Closing = max(0, t.expireAt-mono), t.closing
					}
				}
			}
			v.Sessions = append(v.Sessions, zs)
		}
	}
	type keyed struct {
		client sim.NodeID
		w      sim.Watch
	}
	var ws []keyed
	for _, id := range s.Servers() {
		if s.Nodes[id].Crashed {
			continue
		}
		for _, w := range s.Nodes[id].Proc.(*zkServer).watches {
			ws = append(ws, keyed{w.client, sim.Watch{Client: s.Nodes[w.client].Name, Path: w.path}})
		}
	}
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].client != ws[j].client {
			return ws[i].client < ws[j].client
		}
		return ws[i].w.Path < ws[j].w.Path
	})
	for i, k := range ws {
		if i > 0 && ws[i-1].w == k.w {
			continue
		}
		v.Watches = append(v.Watches, k.w)
	}
	for i := range s.Nodes {
		if c, ok := s.Nodes[i].Proc.(*zkClient); ok {
			snap.Nodes[i].Session = c.cstate
			snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail(s, sim.NodeID(i))
			if c.State == sim.StateHolding {
				snap.Nodes[i].Holds = c.Reentered()
			}
		}
	}
	snap.Design = v
}

// DesignName says the view is ZooKeeper's.
func (*View) DesignName() string { return zkMode{}.Name() }

// ViewOf is the snapshot's ZooKeeper part; nil in another design's
// snapshot.
func ViewOf(s *sim.Snapshot) *View {
	v, _ := sim.DesignOf[*View](s)
	return v
}
