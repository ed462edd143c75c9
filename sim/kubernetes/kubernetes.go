package kubernetes

import (
	"time"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// client-go's leader election figures. Every one is read from
// kubernetes/client-go at tag v0.37.0-beta.0 (commit
// e68a8a7323d4407dad190f37c5b7e5d423df1d13, the only v0.37 tag; its
// tools/leaderelection is v0.36.3's but for release's retry on a
// conflict), tools/leaderelection/leaderelection.go and
// resourcelock/leaselock.go.
const (
	// DefaultLeaseDuration is LeaderElectionConfig.LeaseDuration as core
	// clients set it ("Core clients default this value to 15 seconds"):
	// how long a candidate waits, on its own clock, after it last saw the
	// record change before it may take the Lease over.
	DefaultLeaseDuration = 15 * time.Second
	// DefaultRenewDeadline is RenewDeadline's core default, 10 s: how long
	// the leader's renew loop retries (PollUntilContextTimeout) before it
	// stops leading.
	DefaultRenewDeadline = 10 * time.Second
	// DefaultRetryPeriod is RetryPeriod's core default, 2 s: the wait
	// between tries, jittered by JitterFactor while acquiring.
	DefaultRetryPeriod = 2 * time.Second
	// JitterFactor is leaderelection.JitterFactor: acquire's
	// wait.JitterUntil waits RetryPeriod + rand × 1.2 × RetryPeriod
	// between tries, and NewLeaderElector refuses a RenewDeadline not above
	// JitterFactor × RetryPeriod.
	JitterFactor = 1.2
	// ReleasedLeaseSeconds is the leaseDurationSeconds release() writes
	// with an empty holderIdentity (ReleaseOnCancel): the others may take
	// over one second after they see it.
	ReleasedLeaseSeconds = 1
)

// LeaseKey is the Lease's key in etcd, as kube-apiserver stores a
// namespaced object: /registry/<resource>/<namespace>/<name>.
const LeaseKey = "/registry/leases/kube-system/lockscope"

// LeaseName is the Lease as kubectl names it.
const LeaseName = "kube-system/lockscope"

// APIServerName is the apiserver's node name.
const APIServerName = "apiserver-1"

// Mode is the design's simulator side, a value: the list of designs
// (package designs) installs it with sim.AddMode at start.
var Mode sim.Mode = kubernetesMode{}

type kubernetesMode struct{}

func (kubernetesMode) Name() string { return "kubernetes" }

// kubernetesTraits: etcd members behind one apiserver, a lease the waiter
// times itself, leaseTransitions as every grant's token.
var kubernetesTraits = sim.Traits{
	Place:     5,
	LeaseWord: "leaseDuration", ServerWord: "members", Token: sim.TokenAlways,
	Options:   options,
	Fields:    []string{"fencing"},
	Elects:    func(*sim.Scenario) bool { return true }, // client-go's leader election
	LeadsOnce: sim.LeadPeriodsOnce(LeadPeriods),
	Refusals: map[string]error{
		"plainDel": sim.FieldErr("plainDel", sim.Say("field.kubernetesPlainDel"), "only for redis; a Kubernetes Lease is released by an update that empties holderIdentity"),
		"replica":  sim.FieldErr("replica", sim.Say("field.kubernetesReplica"), "only for redis; the apiserver's etcd replicates every write through raft"),
		"watchdog": sim.FieldErr("watchdog", sim.Say("field.kubernetesWatchdog"), "only for redis and redlock; client-go's leader renews every retryPeriod by itself"),
	},
}

func (kubernetesMode) Traits() sim.Traits { return kubernetesTraits }

// Defaults: client-go's LeaseDuration; a candidate that stops leading is
// restarted and campaigns again (tries 0).
func (kubernetesMode) Defaults(sc *sim.Scenario) {
	sc.TTL = sim.Duration(DefaultLeaseDuration)
	sc.Tries = 0
}

// Validate refuses what NewLeaderElector refuses, in its order and words:
// LeaseDuration > RenewDeadline > JitterFactor × RetryPeriod.
func (kubernetesMode) Validate(sc *sim.Scenario) error {
	lease, renew, retry := sc.TTL.D(), RenewDeadlineOf(sc), RetryPeriodOf(sc)
	if lease <= renew {
		return sim.FieldErr("renewDeadline", sim.Say("field.kubernetesLeaseOverRenew", "lease", lease.String(), "renew", renew.String()),
			"leaseDuration must be greater than renewDeadline (%v, %v)", lease, renew)
	}
	if renew <= time.Duration(JitterFactor*float64(retry)) {
		return sim.FieldErr("retryPeriod", sim.Say("field.kubernetesRenewOverRetry", "renew", renew.String(), "retry", retry.String()),
			"renewDeadline must be greater than retryPeriod*JitterFactor (%v, %v × 1.2)", renew, retry)
	}
	if lease < time.Second {
		return sim.FieldErr("ttl", sim.Say("field.kubernetesLeaseSeconds", "lease", lease.String()),
			"%v: leaseDurationSeconds is whole seconds (int(LeaseDuration / time.Second)), want 1s or more", lease)
	}
	return nil
}

// Servers are the etcd members, then the apiserver.
func (kubernetesMode) Servers(sc *sim.Scenario) []string {
	n := Nodes.Of(sc)
	out := make([]string, n+1)
	for i := range n {
		out[i] = etcd.MemberName(i)
	}
	out[n] = APIServerName
	return out
}

func (kubernetesMode) CanFailover(sc *sim.Scenario, node string) error {
	return sim.FieldErr("", sim.Say("field.kubernetesFailover"), "the apiserver's etcd members elect a new leader by themselves: crash the etcd leader instead")
}

func (kubernetesMode) Failover(s *sim.Sim, node sim.NodeID) {}

func (kubernetesMode) NewServer(sc *sim.Scenario, i int) sim.Process {
	if i < Nodes.Of(sc) {
		return etcd.NewServer(sc, i)
	}
	return &APIServer{}
}

func (kubernetesMode) NewClient(sc *sim.Scenario, i int) sim.Process { return &elector{} }
