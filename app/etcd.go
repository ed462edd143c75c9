package app

import (
	"fmt"
	"math"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// etcdGrantedTTL is the lease TTL etcd grants for a scenario's ttl: the
// client asks for whole seconds (concurrency.WithTTL takes an int) and the
// lessor raises anything shorter than its minimum to that minimum.
func etcdGrantedTTL(ttl time.Duration) time.Duration {
	asked := time.Duration(max(math.Ceil(ttl.Seconds()), 1)) * time.Second
	return max(asked, sim.EtcdMinLeaseTTL)
}

// etcdLeaseFormat shows the lease slider's value, and the TTL etcd grants
// instead when the value is below its minimum.
func etcdLeaseFormat(v float64) string {
	asked := fromSeconds(v).D()
	if got := etcdGrantedTTL(asked); got != asked {
		return fmtSeconds(v) + " → " + shortTime(got)
	}
	return fmtSeconds(v)
}

// etcdProtocol is the etcd lock as the scenario runs it — clientv3's
// concurrency.Session and Mutex against an etcd cluster — with its figures,
// one short line per step.
func etcdProtocol(sc *sim.Scenario) []string {
	asked := time.Duration(max(math.Ceil(sc.TTL.D().Seconds()), 1)) * time.Second
	ttl := etcdGrantedTTL(sc.TTL.D())
	session := "session: LeaseGrant TTL " + shortTime(ttl)
	if ttl != asked {
		session = fmt.Sprintf("session: LeaseGrant TTL %s, raised to etcd's %s minimum", shortTime(asked), shortTime(ttl))
	}
	session += "; KeepAlive every " + shortTime(ttl/3) + " (TTL/3)"
	out := []string{session,
		"lock: Txn If(CreateRevision(" + sim.EtcdPrefix + "<lease>) == 0) Then(Put); the oldest key owns it"}
	if sc.Herd {
		out = append(out, "wait (herd): watch the whole prefix; each delete wakes every waiter")
	} else {
		out = append(out, "wait: watch the delete of the newest older key (waitDeletes), until none is left")
	}
	if sc.Fencing {
		out = append(out, "write: Txn If(CreateRevision(myKey) == myRev) Then(Put); token = create revision")
	} else {
		out = append(out, "write: to a storage outside etcd, no token: it takes every write")
	}
	return append(out, fmt.Sprintf("unlock: Delete(myKey) · lease revoked %s after its last keepalive · %d members, quorum %d",
		shortTime(ttl), sc.Nodes, sc.Nodes/2+1))
}
