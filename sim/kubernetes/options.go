package kubernetes

import (
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// The settings the Kubernetes Lease's scenarios have of their own
// (Traits.Options), in the order the scenario file writes them. The
// scenario's ttl is LeaderElectionConfig.LeaseDuration.
var (
	// Nodes is the number of etcd members under the apiserver,
	// etcd-1…etcd-N; etcd and ZooKeeper declare the same key.
	Nodes = sim.NewInt(sim.Option{Key: "nodes", Elsewhere: sim.Ignored, Words: "members",
		Describe: sim.DescribeFigure, Axis: "1:7:7"}, 3, func(n int) error {
		if n < 1 || n > 7 {
			return sim.FieldErr("nodes", sim.Say("field.etcdNodes", "n", strconv.Itoa(n)), "%d, want 1 to 7 etcd members", n)
		}
		return nil
	})
	// RenewDeadline is LeaderElectionConfig.RenewDeadline: how long the
	// leader retries its renewal, on its own clock, before it stops
	// leading; also the leader-election client's request timeout
	// (kube-controller-manager sets its rest config's Timeout to it).
	RenewDeadline = sim.NewDuration(sim.Option{Key: "renewDeadline",
		Refusal: sim.OnlyReaders("renewDeadline", "field.renewDeadline", "only for %s (client-go's leader election)"),
		Words:   "renewDeadline", Describe: sim.DescribeAsIs}, DefaultRenewDeadline, periodCheck("renewDeadline"))
	// RetryPeriod is LeaderElectionConfig.RetryPeriod: the wait between
	// tries of tryAcquireOrRenew.
	RetryPeriod = sim.NewDuration(sim.Option{Key: "retryPeriod",
		Refusal: sim.OnlyReaders("retryPeriod", "field.retryPeriod", "only for %s (client-go's leader election)"),
		Words:   "retryPeriod", Describe: sim.DescribeAsIs}, DefaultRetryPeriod, periodCheck("retryPeriod"))
	// ReleaseOnCancel is LeaderElectionConfig.ReleaseOnCancel: when the
	// leader's context is cancelled (it has led leadPeriods periods, or it
	// stopped leading) it writes the Lease with an empty holderIdentity
	// and leaseDurationSeconds 1, so the next candidate need not wait a
	// whole LeaseDuration.
	ReleaseOnCancel = sim.NewBool(sim.Option{Key: "releaseOnCancel", Refusal: sim.OnlyFor("releaseOnCancel"),
		Words: "releaseOnCancel", Describe: sim.DescribeWhenOn}, false)
	// LeadPeriods is how many periods of the leader's work it does before
	// the application cancels its context (a rolling update); 0: it leads
	// until it fails, is cut off or stops leading. etcd and ZooKeeper
	// declare the same key.
	LeadPeriods = sim.NewInt(sim.Option{Key: "leadPeriods",
		Refusal: sim.OnlyReaders("leadPeriods", "field.leadPeriods", "only for %s (a leader's periods before it resigns)"),
		Words:   "leadPeriods", Describe: sim.DescribeFigure}, 0, func(n int) error {
		if n < 0 || n > 1000 {
			return sim.FieldErr("leadPeriods", sim.Say("field.leadPeriodsRange", "n", strconv.Itoa(n)), "%d, want 0 to 1000", n)
		}
		return nil
	})
)

// options are the Kubernetes Lease's, in their order.
var options = []*sim.Option{Nodes.Option, RenewDeadline.Option, RetryPeriod.Option, ReleaseOnCancel.Option, LeadPeriods.Option}

// periodCheck refuses a period under 10 ms or over two minutes.
func periodCheck(key string) func(d sim.Duration) error {
	return func(d sim.Duration) error {
		if d.D() < 10*time.Millisecond || d.D() > 2*time.Minute {
			return sim.FieldErr(key, sim.Say("field.kubernetesPeriod", "value", d.D().String()), "%v, want 10ms to 2m", d.D())
		}
		return nil
	}
}

// The parameter line says leadPeriods only when it is set.
func init() { LeadPeriods.Applies = LeadPeriods.IsOn }
