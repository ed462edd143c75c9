package etcd

import (
	"math"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Prefix is the prefix concurrency.NewMutex(session, "/locks/mylock")
// locks under; each contender's key is the prefix plus its lease id in hex.
const Prefix = "/locks/mylock/"

// StorageKey is the key the fenced write puts, in a transaction guarded
// by Mutex.IsOwner(): with fencing the storage lives in etcd itself.
const StorageKey = "/storage/data"

// The etcd server's timing, at its defaults (--heartbeat-interval 100,
// --election-timeout 1000).
const (
	// Heartbeat is one raft tick: the leader heartbeats every tick.
	Heartbeat = 100 * time.Millisecond
	// ElectionTimeout is how long a follower waits without hearing
	// from its leader before it campaigns (randomized up to twice that).
	ElectionTimeout = time.Second
)

// MinLeaseTTL is the shortest lease the lessor grants: a shorter
// request is raised to ceil(1.5 × election timeout) seconds, 2 s by default.
var MinLeaseTTL = minLeaseTTL(ElectionTimeout)

func minLeaseTTL(election time.Duration) time.Duration {
	minTTL := time.Duration(3*int64(election/Heartbeat)/2) * Heartbeat
	return time.Duration(math.Ceil(minTTL.Seconds())) * time.Second
}

const (
	electionTicks = int(ElectionTimeout / Heartbeat)
	// etcdReqTimeout is ServerConfig.ReqTimeout: 5 s + 2 × election
	// timeout, after which a server gives up on a request it proposed.
	etcdReqTimeout = 5*time.Second + 2*ElectionTimeout
	// lessorTick is how often the lessor's runLoop looks for expired
	// leases; expiredLeaseRetry is when it proposes a revoke again
	// (ExpiredLeasesRetryInterval, set to ReqTimeout by the server).
	lessorTick        = 500 * time.Millisecond
	expiredLeaseRetry = etcdReqTimeout
	// keepAliveTick is clientv3's sendKeepAliveLoop period (retryConnWait),
	// also its wait before re-opening a broken keepalive stream.
	keepAliveTick = 500 * time.Millisecond
	// deadlineTick is clientv3's deadlineLoop period.
	deadlineTick = time.Second
	// firstKeepAliveTimeout is the deadline of a new lease before its first
	// keepalive answer (clientv3 defaultTTL, with no DialTimeout set).
	firstKeepAliveTimeout = 5 * time.Second
	// etcdClientTimeout is the context deadline the client puts on each
	// call (etcdctl's --command-timeout default).
	etcdClientTimeout = 5 * time.Second
	// etcdBootUnixMilli seeds the members' id generators: 2026-01-01 UTC.
	etcdBootUnixMilli = 1767225600000
)

// Errors etcd answers with, as its clients print them.
const (
	errNoLeader       etcdErr = "etcdserver: no leader"
	errTimeout        etcdErr = "etcdserver: request timed out"
	errLeaseNotFound  etcdErr = "etcdserver: requested lease not found"
	errLeaseExists    etcdErr = "etcdserver: lease already exists"
	errNotPrimary     etcdErr = "etcdserver: not primary"
	errLeaderChanged  etcdErr = "etcdserver: leader changed"
	errSessionExpired etcdErr = "mutex: session is expired"
	errDeadline       etcdErr = "context deadline exceeded"
	errReset          etcdErr = "connection reset"
)

// A member's roles, as the cluster view shows them (a pre-candidate is a
// candidate).
var (
	RoleLeader    = sim.NewRole("leader")
	RoleFollower  = sim.NewRole("follower")
	RoleCandidate = sim.NewRole("candidate")
)

// Mode is the design's simulator side, a value: the list of designs
// (package designs) installs it with sim.AddMode at start.
var Mode sim.Mode = etcdMode{}

type etcdMode struct{}

func (etcdMode) Name() string { return "etcd" }

// etcdTraits: raft members, a lease, and the key's create revision as
// every grant's token.
var etcdTraits = sim.Traits{
	Place:     4,
	LeaseWord: "lease", ServerWord: "members", Token: sim.TokenAlways, FencedValueInService: true,
	Options:   options,
	Fields:    []string{"fencing"},
	Elects:    Electing, // concurrency.Election
	LeadsOnce: sim.LeadPeriodsOnce(LeadPeriods),
	Refusals: map[string]error{
		"plainDel": sim.FieldErr("plainDel", sim.Say("field.etcdPlainDel"), "only for redis; an etcd mutex unlocks by deleting its own key"),
		"replica":  sim.FieldErr("replica", sim.Say("field.etcdReplica"), "only for redis; etcd replicates every write through raft"),
		"watchdog": sim.FieldErr("watchdog", sim.Say("field.etcdWatchdog"), "only for redis; an etcd session keeps its lease alive every TTL/3 by itself"),
	},
}

func (etcdMode) Traits() sim.Traits { return etcdTraits }

// Defaults: pre-vote on is its option's default (options.go).
func (etcdMode) Defaults(sc *sim.Scenario) { sc.Tries = 0 }

// Validate checks that reenter's inner section ends before the work
// does and what readers goes with (rwlock.go); its options are checked by their declarations (the number of
// members).
func (etcdMode) Validate(sc *sim.Scenario) error {
	if err := checkNested(sc); err != nil {
		return err
	}
	return checkReadersWith(sc)
}

func (etcdMode) Servers(sc *sim.Scenario) []string {
	out := make([]string, Nodes.Of(sc))
	for i := range out {
		out[i] = memberName(i)
	}
	return out
}

// memberName is the name of member i (0-based): etcd-1, etcd-2...
func memberName(i int) string { return "etcd-" + strconv.Itoa(i+1) }

func (etcdMode) CanFailover(sc *sim.Scenario, node string) error {
	return sim.FieldErr("", sim.Say("field.etcdFailover"), "etcd members elect a new leader by themselves: crash the leader instead")
}

func (etcdMode) Failover(s *sim.Sim, node sim.NodeID) {}

func (etcdMode) NewServer(sc *sim.Scenario, i int) sim.Process { return newEtcdServer(sc, i) }

func (etcdMode) NewClient(sc *sim.Scenario, i int) sim.Process { return &etcdClient{index: i} }

// leaseSeconds is the TTL a client asks for: etcd leases are whole
// seconds, so a fractional scenario TTL is rounded up.
func leaseSeconds(d time.Duration) time.Duration {
	s := int64(math.Ceil(d.Seconds()))
	return time.Duration(max(s, 1)) * time.Second
}

// AskedTTL is the lease TTL a client asks for a scenario's ttl
// (concurrency.WithTTL takes whole seconds), for the window to show.
func AskedTTL(ttl time.Duration) time.Duration { return leaseSeconds(ttl) }

// GrantedTTL is the lease TTL the lessor grants for a scenario's ttl:
// what the client asks for, raised to the lessor's minimum.
func GrantedTTL(ttl time.Duration) time.Duration { return grantedLease(leaseSeconds(ttl)) }

// grantedLease is the TTL the lessor grants for a requested one: a request
// shorter than MinLeaseTTL is raised to it.
func grantedLease(asked time.Duration) time.Duration { return max(asked, MinLeaseTTL) }

// NewServer is member i (0-based, etcd-1 first) of an ensemble of
// Nodes.Of(sc) members, for a design that keeps its state in etcd behind
// servers of its own (the Kubernetes apiserver, sim/kubernetes): the same
// raft, store and lessor as this design's members.
func NewServer(sc *sim.Scenario, i int) *Server { return newEtcdServer(sc, i) }

// MemberName is the name of member i (0-based): etcd-1, etcd-2...
func MemberName(i int) string { return memberName(i) }

// Shown is the member as the cluster picture shows it: its raft role and
// its one-line detail (term, index, commit, revision).
func (s *Server) Shown() (sim.Role, string, sim.Words) {
	d, w := s.detail()
	return s.role, d, w
}

// Read is key as this member has applied it: the value a TxnPut put, its
// mod revision, and the store's revision (for a picture of another
// design's object kept in etcd).
func (s *Server) Read(key string) (val any, modRev, rev int64, ok bool) {
	kv, ok := s.kv[key]
	return kv.Val, kv.ModRev, s.rev, ok
}
