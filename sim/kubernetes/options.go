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
	// 0, the default, is the core clients' default in proportion to the
	// scenario's LeaseDuration (RenewDeadlineOf): 10 s with 15 s, so
	// that a map along LeaseDuration keeps client-go's ratio and its
	// validation.
	RenewDeadline = sim.NewDuration(sim.Option{Key: "renewDeadline",
		Refusal: sim.OnlyReaders("renewDeadline", "field.renewDeadline", "only for %s (client-go's leader election)"),
		Words:   "renewDeadline", Describe: sim.DescribeNot}, 0, periodCheck("renewDeadline"))
	// RetryPeriod is LeaderElectionConfig.RetryPeriod: the wait between
	// tries of tryAcquireOrRenew; 0, the default, is in proportion to
	// LeaseDuration as RenewDeadline's (RetryPeriodOf): 2 s with 15 s.
	RetryPeriod = sim.NewDuration(sim.Option{Key: "retryPeriod",
		Refusal: sim.OnlyReaders("retryPeriod", "field.retryPeriod", "only for %s (client-go's leader election)"),
		Words:   "retryPeriod", Describe: sim.DescribeNot}, 0, periodCheck("retryPeriod"))
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

// RenewDeadlineOf is the RenewDeadline sc's candidates run with: the
// option, or when it is 0 DefaultRenewDeadline × LeaseDuration /
// DefaultLeaseDuration (10 s for the default 15 s).
func RenewDeadlineOf(sc *sim.Scenario) time.Duration {
	return orInProportion(RenewDeadline.Of(sc).D(), DefaultRenewDeadline, sc)
}

// RetryPeriodOf is the RetryPeriod sc's candidates run with: the option,
// or when it is 0 DefaultRetryPeriod × LeaseDuration / DefaultLeaseDuration
// (2 s for the default 15 s).
func RetryPeriodOf(sc *sim.Scenario) time.Duration {
	return orInProportion(RetryPeriod.Of(sc).D(), DefaultRetryPeriod, sc)
}

// orInProportion is d, or when d is 0 def scaled by sc's LeaseDuration
// over DefaultLeaseDuration.
func orInProportion(d, def time.Duration, sc *sim.Scenario) time.Duration {
	if d > 0 {
		return d
	}
	us := func(d time.Duration) int64 { return int64(d / time.Microsecond) } // in µs: no overflow
	return time.Duration(us(sc.TTL.D())*us(def)/us(DefaultLeaseDuration)) * time.Microsecond
}

// periodCheck refuses a period under 10 ms or over two minutes (0 is the
// default in proportion).
func periodCheck(key string) func(d sim.Duration) error {
	return func(d sim.Duration) error {
		if d != 0 && (d.D() < 10*time.Millisecond || d.D() > 2*time.Minute) {
			return sim.FieldErr(key, sim.Say("field.kubernetesPeriod", "value", d.D().String()), "%v, want 10ms to 2m", d.D())
		}
		return nil
	}
}

// The parameter line says leadPeriods only when it is set. It does not
// say renewDeadline and retryPeriod, whose 0 stands for a figure worked
// out from ttl: the protocol lines say the figures the candidates run
// with (RenewDeadlineOf, RetryPeriodOf).
func init() { LeadPeriods.Applies = LeadPeriods.IsOn }
