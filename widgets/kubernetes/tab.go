// Package kubernetes is the Kubernetes Lease's window side: its state
// picture (Lease: the Lease object as etcd holds it and each candidate's
// LeaderElector, on its own clock) and its tab, the value Tab, which the
// list of designs installs.
package kubernetes

import (
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	kubernetessim "github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// kubernetesProtocol is client-go's leader election as the scenario runs
// it, with its figures, one short line per step.
func kubernetesProtocol(sc *sim.Scenario) []string {
	lease := widgets.ShortTime(sc.TTL.D())
	retry := widgets.ShortTime(kubernetessim.RetryPeriodOf(sc))
	out := []string{
		i18n.T("kubernetes.proto.store"),
		i18n.F("kubernetes.proto.acquire", "retry", retry),
		i18n.F("kubernetes.proto.expire", "lease", lease),
		i18n.F("kubernetes.proto.renew", "retry", retry, "deadline", widgets.ShortTime(kubernetessim.RenewDeadlineOf(sc))),
	}
	if sc.Fencing {
		out = append(out, i18n.T("kubernetes.proto.writeFenced"))
	} else {
		out = append(out, i18n.T("kubernetes.proto.write"))
	}
	if kubernetessim.ReleaseOnCancel.Of(sc) {
		out = append(out, i18n.T("kubernetes.proto.release"))
	}
	return out
}

// periodFormat formats a period's slider while it is dragged: its
// seconds, or at 0 "auto": the core default in proportion to
// LeaseDuration.
func periodFormat(v float64) string {
	if v == 0 {
		return i18n.T("kubernetes.auto")
	}
	return designtab.FormatSeconds(v)
}

// periodIn formats a period's slider as it stands in sc: at 0 "auto" with
// the figure the candidates run with (of, RenewDeadlineOf or
// RetryPeriodOf), which follows LeaseDuration.
func periodIn(of func(*sim.Scenario) time.Duration) func(sc *sim.Scenario, v float64) string {
	return func(sc *sim.Scenario, v float64) string {
		if v != 0 {
			return periodFormat(v)
		}
		return i18n.F("kubernetes.autoIs", "value", widgets.ShortTime(of(sc)))
	}
}

// widestPeriod is the longest a period's value reads: auto at a
// LeaseDuration of whole seconds whose two thirds are not (7 s).
func widestPeriod() string { return i18n.F("kubernetes.autoIs", "value", "4.667 s") }

// Tab is the Kubernetes Lease's tab: its state picture, the preset it
// opens with, its sliders and toggles (the shared ones with its rules, its
// options') and its protocol lines. It is the design's window side, a
// value: the list of designs (package designs) installs it with
// designtab.Register at start.
var Tab = designtab.ModeTab{
	Mode:       "kubernetes",
	Title:      "Kubernetes",
	StateTitle: "state.kubernetes",
	Preset:     "k8s-paused-leader",
	NewState:   func() designtab.StateView { return NewLease() },
	// The number of etcd members is the file's (nodes): the tab's room
	// goes to client-go's settings.
	Sliders: []string{"ttl", kubernetessim.RenewDeadline.Key, kubernetessim.RetryPeriod.Key,
		"work", "pause", "latency", "clients", "clockDrift"},
	Toggles: []string{"fencing", kubernetessim.ReleaseOnCancel.Key},
	SliderRules: map[string]func(*designtab.SliderSpec){
		// leaseDurationSeconds is whole seconds (int(LeaseDuration /
		// time.Second)).
		"ttl": func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Max, s.Step = "kubernetesLease", "LeaseDuration", 2, 60, 1
		},
		// 0 ("auto") is client-go's core default in proportion to
		// LeaseDuration; the top of each range is what NewLeaderElector
		// takes with the default LeaseDuration (15 s > RenewDeadline >
		// 1.2 × RetryPeriod), a longer one is the file's.
		kubernetessim.RenewDeadline.Key: func(s *designtab.SliderSpec) {
			s.Label, s.Min, s.Max, s.Step, s.Format = "RenewDeadline", 0, 14.5, 0.5, periodFormat
			s.FormatIn, s.Widest = periodIn(kubernetessim.RenewDeadlineOf), widestPeriod
		},
		kubernetessim.RetryPeriod.Key: func(s *designtab.SliderSpec) {
			s.Label, s.Min, s.Max, s.Step, s.Format = "RetryPeriod", 0, 8, 0.1, periodFormat
			s.FormatIn, s.Widest = periodIn(kubernetessim.RetryPeriodOf), widestPeriod
		},
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		"fencing":                         func(t *designtab.ToggleSpec) { t.Words = "kubernetesFencing" },
		kubernetessim.ReleaseOnCancel.Key: func(t *designtab.ToggleSpec) { t.Label = "ReleaseOnCancel" },
	},
	Protocol: kubernetesProtocol,
}
