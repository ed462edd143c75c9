package zookeeper

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// zkTxn is one transaction of the replicated log.
type zkTxn struct {
	Zxid    int64
	Kind    txnKind
	Path    string // child name under LockPath
	Session int64
	Cxid    int64 // the client's xid, so the server it came through can answer
	Timeout time.Duration
	Owner   string // createSession: the client, for display
}

// msg is the message op carrying the transaction as its body (a copy, so
// the log it came from may change).
func (x zkTxn) msg(op sim.Op) sim.Msg {
	body := x
	return sim.Msg{Op: op, Body: &body}
}

// zkTxnOf is the transaction a PROPOSAL, DIFF or REQUEST carries.
func zkTxnOf(m *sim.Msg) *zkTxn { return m.Body.(*zkTxn) }

// zkZnode is an ephemeral sequential child of the lock znode.
type zkZnode struct {
	Name    string
	Seq     int64
	Session int64
	Czxid   int64
}

// zkSessionInfo is a session in the replicated session table.
type zkSessionInfo struct {
	ID      int64
	Timeout time.Duration
	Owner   string
}

// zkTreeRoom is the room a tree's children and sessions start with: one
// allocation each holds a sweep's clients (append from nothing grew them
// four times on each server of each run).
const zkTreeRoom = 8

// zkTree is a server's data: the lock znode's children and the sessions.
type zkTree struct {
	nodes    []zkZnode
	cversion int64
	pzxid    int64
	sessions []zkSessionInfo
}

func (t zkTree) clone() zkTree {
	t.nodes = append([]zkZnode(nil), t.nodes...)
	t.sessions = append([]zkSessionInfo(nil), t.sessions...)
	return t
}

func (t *zkTree) find(name string) int {
	for i, n := range t.nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

func (t *zkTree) session(id int64) int {
	for i, s := range t.sessions {
		if s.ID == id {
			return i
		}
	}
	return -1
}

func (t *zkTree) owner(session int64) string {
	if i := t.session(session); i >= 0 {
		return t.sessions[i].Owner
	}
	return ""
}

func (t *zkTree) lowest() (zkZnode, bool) {
	if len(t.nodes) == 0 {
		return zkZnode{}, false
	}
	best := t.nodes[0]
	for _, n := range t.nodes[1:] {
		if n.Seq < best.Seq {
			best = n
		}
	}
	return best, true
}

// apply runs one committed transaction; it returns the znodes it deleted
// and whether the children of the lock znode changed.
func (t *zkTree) apply(x zkTxn) (deleted []string, changed bool) {
	switch x.Kind {
	case zkTxnCreate:
		if t.nodes == nil {
			t.nodes = make([]zkZnode, 0, zkTreeRoom)
		}
		t.nodes = append(t.nodes, zkZnode{Name: x.Path, Seq: zkSeqOf(x.Path), Session: x.Session, Czxid: x.Zxid})
		t.cversion++
		t.pzxid = x.Zxid
		return nil, true
	case zkTxnDelete:
		if i := t.find(x.Path); i >= 0 {
			t.nodes = append(t.nodes[:i], t.nodes[i+1:]...)
			t.cversion++
			t.pzxid = x.Zxid
			return []string{x.Path}, true
		}
	case zkTxnCreateSess:
		if t.session(x.Session) < 0 {
			if t.sessions == nil {
				t.sessions = make([]zkSessionInfo, 0, zkTreeRoom)
			}
			t.sessions = append(t.sessions, zkSessionInfo{ID: x.Session, Timeout: x.Timeout, Owner: x.Owner})
		}
	case zkTxnCloseSession:
		if i := t.session(x.Session); i >= 0 {
			t.sessions = append(t.sessions[:i], t.sessions[i+1:]...)
		}
		keep := t.nodes[:0]
		for _, n := range t.nodes {
			if n.Session == x.Session {
				deleted = append(deleted, n.Name)
				t.cversion++
				t.pzxid = x.Zxid
				continue
			}
			keep = append(keep, n)
		}
		t.nodes = keep
		return deleted, len(deleted) > 0
	}
	return nil, false
}
