package app

import (
	"math"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
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
	session := i18n.F("etcd.proto.session", "ttl", shortTime(ttl))
	if ttl != asked {
		session = i18n.F("etcd.proto.sessionRaised", "asked", shortTime(asked), "ttl", shortTime(ttl))
	}
	session += i18n.F("etcd.proto.keepalive", "every", shortTime(ttl/3))
	out := []string{session, i18n.F("etcd.proto.lock", "prefix", sim.EtcdPrefix)}
	if sc.Herd {
		out = append(out, i18n.T("etcd.proto.waitHerd"))
	} else {
		out = append(out, i18n.T("etcd.proto.wait"))
	}
	if sc.Fencing {
		out = append(out, i18n.T("etcd.proto.writeFenced"))
	} else {
		out = append(out, i18n.T("etcd.proto.write"))
	}
	return append(out, i18n.F("etcd.proto.unlock", "ttl", shortTime(ttl), "n", sc.Nodes, "quorum", sc.Nodes/2+1))
}
